/**
 * A TLS server on 127.0.0.1 for tests, with a certificate made at test time by
 * `openssl` (a self-signed one for `localhost` and 127.0.0.1 unless told otherwise),
 * kept in a scratch folder so a spawned pep can trust it via NODE_EXTRA_CA_CERTS.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import os from "node:os";
import path from "node:path";

export interface TestCert {
  key: string;
  cert: string;
  /** Path of the certificate in PEM, for NODE_EXTRA_CA_CERTS. */
  certFile: string;
  cleanup(): void;
}

/** Whether `openssl` can be run here. */
export function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A self-signed certificate for `names` (DNS names and IP addresses). */
export function makeCert(names: string[] = ["localhost", "127.0.0.1"]): TestCert {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pep-tls-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  const san = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(",");
  const conf = path.join(dir, "req.cnf");
  writeFileSync(
    conf,
    `[req]\ndistinguished_name=dn\nx509_extensions=ext\nprompt=no\n[dn]\nCN=${names[0]}\n[ext]\nsubjectAltName=${san}\nbasicConstraints=critical,CA:TRUE\n`,
  );
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "2",
      "-config",
      conf,
    ],
    { stdio: "ignore" },
  );
  return {
    key: readFileSync(keyFile, "utf8"),
    cert: readFileSync(certFile, "utf8"),
    certFile,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsServer {
  /** `https://localhost:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startTlsServer(
  cert: TestCert,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TlsServer> {
  const sockets = new Set<Socket>();
  const server = createServer({ key: cert.key, cert: cert.cert }, handler);
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
