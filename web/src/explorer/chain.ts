// A unit's chain of command at a date (commandChain), drawn top down: the
// units level by level with their commanders, every hop a relation whose
// evidence a click on it opens; the hierarchy layout puts each superior
// above its subordinate.
import { gql } from "./api";
import type { EntityRef, Relation } from "./api";
import type { Canvas } from "./canvas";
import { run, status } from "./ui";

interface Hop {
  entity: EntityRef;
  relation: Relation;
}

interface ChainUnit {
  unit: EntityRef;
  commanders: Hop[];
  superiors: Hop[];
}

interface CommandChain {
  unit: ChainUnit;
  levels: { level: number; units: ChainUnit[] }[];
  truncated: boolean;
}

const chainUnit = `unit { ...Ref } commanders { entity { ...Ref } relation { ...Rel } } superiors { entity { ...Ref } relation { ...Rel } }`;

const chainDocument = `query CommandChain($id: ID!, $at: PartialDate!) {
  commandChain(unitId: $id, at: $at) { unit { ${chainUnit} } levels { level units { ${chainUnit} } } truncated }
}`;

/** drawChain reads the chain of command of unit id at a date and draws it as a hierarchy. */
export async function drawChain(canvas: Canvas, id: string, at: string): Promise<void> {
  const data = await run("Reading the chain of command", () => gql<{ commandChain: CommandChain }>(chainDocument, { id, at }));
  if (!data) return;
  const chain = data.commandChain;
  const units = [chain.unit, ...chain.levels.flatMap((l) => l.units)];
  const hops = units.flatMap((u) => [...u.commanders, ...u.superiors]);
  canvas.add(
    units.map((u) => u.unit),
    hops.map((h) => h.relation),
    { layout: false },
  );
  canvas.select([]);
  canvas.layout([], "hierarchy");
  status(`The chain of command at ${at}: ${chain.levels.length} ${chain.levels.length === 1 ? "level" : "levels"} above${chain.truncated ? " (cut short: raise the levels read)" : ""}.`);
}
