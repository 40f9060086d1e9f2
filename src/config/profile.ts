/** The profile of a run: `--profile`, else `PEP_PROFILE`, else `default` (an empty name is `default`). */
export function profileName(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const name = flag ?? env.PEP_PROFILE ?? "default";
  return name === "" ? "default" : name;
}
