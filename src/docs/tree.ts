/**
 * The command tree as the docs see it: root, groups and commands, each with its names,
 * options and argument values, built from the same definitions that build the
 * commander tree (`docSources()` in commands/registry.ts). Man pages and
 * completion scripts both walk this tree, so they cannot disagree with `--help`.
 */
import { OUTPUT_FORMATS } from "../api/enums.js";
import type { OptionDef } from "../api/options.js";
import type { CommandDef, GroupInfo } from "../core/command.js";

/** What the generators read: the definitions and the version they document. */
export interface DocSources {
  version: string;
  commands: readonly CommandDef[];
  groups: Readonly<Record<string, GroupInfo>>;
  globalOptions: readonly OptionDef[];
  optionsOf(def: CommandDef): OptionDef[];
}

export const HELP_OPTION: OptionDef = { key: "help", long: "help", short: "h", description: "show help" };
export const VERSION_OPTION: OptionDef = {
  key: "version",
  long: "version",
  short: "V",
  description: "print the version",
};

export interface CmdNode {
  /** Words after `pep`; `[]` for the root. */
  words: string[];
  name: string;
  aliases: string[];
  summary: string;
  /** The definition of a runnable command (absent for the root and groups). */
  def?: CommandDef;
  children: CmdNode[];
  /** Options of this node, global ones excluded (a group: those of its default command). */
  options: OptionDef[];
  /** Global options as they apply here (`-o` lists only the formats this command prints). */
  globals: OptionDef[];
  /** Values each positional argument may take, by position; `null` = anything. */
  args: (readonly string[] | null)[];
  /** The last positional repeats (`vendors compare <id...>`). */
  variadic: boolean;
}

/** Output formats a command accepts: every command's, plus its extra ones. */
export function formatsOf(def: CommandDef): string[] {
  return [...OUTPUT_FORMATS, ...(def.extraFormats ?? [])];
}

function globalsFor(src: DocSources, def: CommandDef | undefined): OptionDef[] {
  return src.globalOptions.map((o) => (def && o.key === "output" ? { ...o, choices: formatsOf(def) } : o));
}

function leaf(src: DocSources, def: CommandDef): CmdNode {
  const args = def.args ?? [];
  return {
    words: [...def.path],
    name: def.path[def.path.length - 1]!,
    aliases: [...(def.aliases ?? [])],
    summary: def.summary,
    def,
    children: [],
    options: [...src.optionsOf(def).filter((o) => !o.hidden), HELP_OPTION],
    globals: globalsFor(src, def),
    args: args.map((a) => (a.choices?.length ? a.choices : null)),
    variadic: args.length > 0 && args[args.length - 1]!.variadic === true,
  };
}

/** Builds the tree; `pep help <command>` appears as a child of the root. */
export function commandTree(src: DocSources): CmdNode {
  const root: CmdNode = {
    words: [],
    name: "pep",
    aliases: [],
    summary: "Read the peptide research API from the command line",
    children: [],
    options: [HELP_OPTION, VERSION_OPTION],
    globals: globalsFor(src, undefined),
    args: [],
    variadic: false,
  };
  const groups = new Map<string, CmdNode>();
  for (const def of src.commands) {
    if (def.path.length === 1) {
      root.children.push(leaf(src, def));
      continue;
    }
    const groupName = def.path[0]!;
    let group = groups.get(groupName);
    if (!group) {
      const info = src.groups[groupName];
      group = {
        words: [groupName],
        name: groupName,
        aliases: [...(info?.aliases ?? [])],
        summary: info?.summary ?? groupName,
        children: [],
        options: [HELP_OPTION],
        globals: globalsFor(src, undefined),
        args: [],
        variadic: false,
      };
      groups.set(groupName, group);
      root.children.push(group);
    }
    const child = leaf(src, def);
    group.children.push(child);
    // `pep peptides --category x` runs the default command: complete its options and arguments.
    if (def.isDefault) {
      group.options = child.options;
      group.globals = child.globals;
      group.args = child.args;
      group.variadic = child.variadic;
    }
  }
  root.children.push({
    words: ["help"],
    name: "help",
    aliases: [],
    summary: "show help for a command",
    children: [],
    options: [],
    globals: [],
    args: [root.children.filter((c) => c.name !== "help").map((c) => c.name)],
    variadic: false,
  });
  return root;
}

/** Every node, depth first, root included. */
export function allNodes(root: CmdNode): CmdNode[] {
  return [root, ...root.children.flatMap((c) => allNodes(c))];
}
