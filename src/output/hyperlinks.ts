/**
 * Whether OSC 8 hyperlinks go to a terminal: only where the terminal is known to render
 * them, by the rules of the supports-hyperlinks package (FORCE_HYPERLINK, Windows
 * Terminal, iTerm 3.1+, WezTerm, VS Code 1.72+, Ghostty, VTE 0.50.1+, kitty, alacritty;
 * never on CI, TeamCity or an unknown terminal such as tmux or screen), with pep's own
 * override `PEP_HYPERLINKS=1|0` above all. A terminal that does not render them would show
 * only the link's text and lose its address, so the default is off.
 */
import { envSwitch } from "../core/switches.js";

type Env = Readonly<Record<string, string | undefined>>;

/** `major.minor.patch` of a version string; missing parts are 0. */
function version(text: string | undefined): { major: number; minor: number } {
  if (text && /^\d{3,4}$/.test(text)) {
    // VTE_VERSION is written 5000 for 0.50.0, 6203 for 0.62.3.
    const n = Number(text);
    return { major: Math.floor(n / 10000), minor: Math.floor((n % 10000) / 100) };
  }
  const [major = 0, minor = 0] = (text ?? "").split(".").map((p) => Number.parseInt(p, 10) || 0);
  return { major, minor };
}

/** What the terminal program named by TERM_PROGRAM renders, or undefined when it is not one known. */
function byTermProgram(env: Env): boolean | undefined {
  const v = version(env.TERM_PROGRAM_VERSION);
  switch (env.TERM_PROGRAM) {
    case "iTerm.app":
      return v.major === 3 ? v.minor >= 1 : v.major > 3;
    case "WezTerm":
      return v.major >= 20200620;
    case "vscode":
      return v.major > 1 || (v.major === 1 && v.minor >= 72);
    case "ghostty":
      return true;
    default:
      return undefined;
  }
}

/**
 * Links on a stream that is a terminal with colour (`colour` already says NO_COLOR,
 * --no-color and TERM=dumb), as supports-hyperlinks decides, unless PEP_HYPERLINKS says.
 */
export function hyperlinksSupported(env: Env, isTTY: boolean, colour: boolean): boolean {
  if ((env.PEP_HYPERLINKS ?? "").trim() !== "") return envSwitch(env, "PEP_HYPERLINKS") && isTTY;
  const force = env.FORCE_HYPERLINK;
  if (force !== undefined) return !(force.length > 0 && Number.parseInt(force, 10) === 0);
  if (!colour || !isTTY) return false;
  if ("WT_SESSION" in env) return true;
  if (process.platform === "win32") return false;
  if (env.CI || env.TEAMCITY_VERSION) return false;
  const known = byTermProgram(env);
  if (known !== undefined) return known;
  if (env.VTE_VERSION) {
    if (env.VTE_VERSION === "0.50.0") return false;
    const v = version(env.VTE_VERSION);
    return v.major > 0 || v.minor >= 50;
  }
  return env.TERM === "alacritty" || env.TERM === "xterm-kitty";
}
