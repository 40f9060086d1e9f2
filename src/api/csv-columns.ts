/**
 * The columns of `-o csv` and `-o tsv` for each list resource, kept beside the endpoint
 * table (docs/cli.md#csv-and-tsv-columns): the header depends only on the command and its
 * flags, never on the data. Top-level fields come in the service's order (its `fields`
 * lists where it gives one: docs/api.md#resources); nested objects are
 * flattened to the paths named here (`evidence.level`, `rating.average`). A value where
 * the map expects a plain value (an object, a list of objects) is written as compact JSON
 * in that column's cell; whatever the map does not name (a field a newer API adds, a
 * nested key it does not know) goes as compact JSON into the last column, `other`, so
 * nothing is dropped and no column is added. `--fields a,b` gives exactly those columns
 * instead (a name with sub-columns here, such as `evidence`, gives its sub-columns).
 */
import { RESOURCES, type Resource, type ResourceDescriptor } from "./resources.js";

/** The last column of a mapped header: what the columns before it do not hold. */
export const OTHER_COLUMN = "other";

/** The header for `resource` (its map and `other`), or `--fields` expanded by the map. */
export function mappedColumns(resource: Resource, fields?: readonly string[]): string[] | undefined {
  const described: ResourceDescriptor = RESOURCES[resource];
  const map = described.csv;
  if (map === null) return undefined;
  if (!fields || fields.length === 0) return described.closed ? [...map] : [...map, OTHER_COLUMN];
  return fields.flatMap((f) => {
    const under = map.filter((c) => c.startsWith(`${f}.`));
    return under.length > 0 ? under : [f];
  });
}

/**
 * What of `item` the `columns` do not hold, or undefined when they hold it all. A value
 * at a path that only leads to columns (`shipping.free_shipping: null`) is held by their
 * empty cells.
 */
export function leftOver(item: unknown, columns: readonly string[]): unknown {
  const walk = (value: unknown, path: string): unknown => {
    if (columns.includes(path)) return undefined;
    const leads = columns.some((c) => c.startsWith(`${path}.`));
    if (value === null || typeof value !== "object" || Array.isArray(value))
      return leads && (value === null || value === undefined) ? undefined : value;
    if (!leads && path !== "") return value;
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const left = walk(v, path === "" ? k : `${path}.${k}`);
      if (left !== undefined) rest[k] = left;
    }
    return Object.keys(rest).length > 0 ? rest : undefined;
  };
  return walk(item, "");
}
