// Live: the view watches its entities and the path it shows, through the
// API's subscriptions over graphql-ws: the audit log's changes (editors
// and admins; readers are told they watch paths only), of which those that
// touch what is drawn are kept, and watchPath for the Paths panel's pair.
// What changed since the watch was turned on gets a badge on the canvas and
// a line, with its time, in the list of changes. A new identity (sign in
// or out) closes the socket and subscribes again with the new credentials,
// and forgets the marks the old identity saw.
import { createClient } from "graphql-ws/client";
import type { Client } from "graphql-ws/client";
import type { EdgeSingular, NodeSingular } from "cytoscape";
import { authHeader, identityEvent } from "./auth";
import { gql } from "./api";
import type { EntityRef, Path, PathFilter } from "./api";
import type { Canvas, NodeData } from "./canvas";
import { h, replace } from "./dom";
import { entityName } from "./ui";

/** LiveChange is one line of the list: when, what, and the drawn ids it touched. */
export interface LiveChange {
  at: Date;
  text: string;
  ids: string[];
}

/** The watched pair, as the Paths panel holds it. */
export interface WatchedPair {
  from: EntityRef;
  to: EntityRef;
  filter: PathFilter;
}

interface GraphQLErrorLike {
  message: string;
  extensions?: { code?: string };
}

interface ChangeEvent {
  changes: { cursor: string; change: { id: string; at: string; operation: string; targets: string[]; dataset: string | null; fields: { field: string }[] } | null };
}

interface PathEvent {
  watchPath: { kind: string; path: Path | null };
}

const changesDocument = `subscription LiveChanges { changes { cursor change { id at operation targets dataset fields { field } } } }`;

const pathDocument = `subscription LivePath($from: ID!, $to: ID!, $filter: PathFilter) {
  watchPath(from: $from, to: $to, filter: $filter) {
    kind path { length nodes { id kind name dataset redacted } steps { relation { id } } }
  }
}`;

/** badge is the mark of a changed entity: a magenta dot in its corner (a data: image, which the CSP allows). */
const badge =
  "data:image/svg+xml;utf8," +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="14" height="14"><circle cx="7" cy="7" r="5.5" fill="#c2006b" stroke="#fff" stroke-width="2"/></svg>');
const changedColour = "#c2006b";

/** Live is the live control, its subscriptions and what they marked. */
export class Live {
  on = false;
  /** connections counts the sockets that were acknowledged (tests watch it to see a resubscription). */
  connections = 0;
  /** changes are the changes seen since the watch was turned on, newest first. */
  changes: LiveChange[] = [];
  /** entities says how the entities are watched: "changes", "forbidden" (a reader: paths only), or an error. */
  entities = "";
  private client: Client | null = null;
  private stops: (() => void)[] = [];
  private stopPath: (() => void) | null = null;
  private pair: WatchedPair | null = null;
  private marked = new Set<string>();

  constructor(
    private canvas: Canvas,
    private control: HTMLElement,
    private vocabulary: Map<string, { label: string }>,
    private toggled: () => void = () => {},
  ) {
    replace(
      control,
      h("button", { type: "button", id: "live-toggle", class: "small", "aria-pressed": "false", onclick: () => this.toggle(!this.on) }, "Live"),
      h("span", { id: "live-state", class: "hint", "aria-live": "polite" }, "off"),
      h("details", { id: "live-details" }, h("summary", { id: "live-summary" }, "Changes (0)"), h("ol", { id: "live-changes", class: "list live-list" })),
    );
    window.addEventListener(identityEvent, () => this.restart());
    // What is drawn again (undo, a restored view) loses its overrides: mark it again.
    canvas.onChange(() => this.remark());
  }

  /** toggle turns the watch on or off; turning it on starts the list afresh. */
  toggle(on: boolean): void {
    this.on = on;
    const button = this.control.querySelector("#live-toggle")!;
    button.setAttribute("aria-pressed", String(on));
    this.toggled();
    if (!on) {
      this.close();
      this.clearMarks();
      this.state("off");
      return;
    }
    this.changes = [];
    this.list();
    this.open();
  }

  /** watchPair watches the shortest path of the Paths panel's pair (null: none). */
  watchPair(pair: WatchedPair | null): void {
    const same = pair && this.pair && pair.from.id === this.pair.from.id && pair.to.id === this.pair.to.id && JSON.stringify(pair.filter) === JSON.stringify(this.pair.filter);
    if (same) return;
    this.pair = pair;
    if (this.on && this.client) this.subscribePath();
  }

  /** restart subscribes again under the tab's credentials as they are now. */
  restart(): void {
    if (!this.on) return;
    this.close();
    this.clearMarks();
    this.changes = [];
    this.list();
    this.open();
  }

  private open(): void {
    this.state("connecting…");
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
    this.client = createClient({
      url,
      // Browsers cannot set headers on a WebSocket: the credentials go in connection_init.
      connectionParams: () => (authHeader() ? { Authorization: authHeader() } : {}),
      retryAttempts: 5,
      shouldRetry: (ev) => !(ev instanceof CloseEvent && ev.code === 4403),
      on: {
        connected: () => {
          this.connections++;
          this.state(this.describe());
        },
        closed: (ev) => {
          if (ev instanceof CloseEvent && ev.code === 4403) this.state(`refused: ${ev.reason}`);
        },
      },
    });
    this.entities = "";
    this.stops.push(
      this.client.subscribe<ChangeEvent>(
        { query: changesDocument },
        {
          next: (r) => {
            if (r.errors?.length) return this.refused(r.errors as GraphQLErrorLike[]);
            this.entities = "changes";
            this.state(this.describe());
            const c = r.data?.changes.change;
            if (c) void this.changed(c);
          },
          error: (err) => this.refused(Array.isArray(err) ? (err as GraphQLErrorLike[]) : [{ message: String(err) }]),
          complete: () => {},
        },
      ),
    );
    this.subscribePath();
  }

  private subscribePath(): void {
    this.stopPath?.();
    this.stopPath = null;
    const pair = this.pair;
    if (!this.client || !pair || pair.from.id === pair.to.id) return;
    let first = true;
    this.stopPath = this.client.subscribe<PathEvent>(
      { query: pathDocument, variables: { from: pair.from.id, to: pair.to.id, filter: pair.filter } },
      {
        next: (r) => {
          const ev = r.data?.watchPath;
          if (!ev) return;
          if (first || ev.kind === "CURRENT") {
            first = false;
            return; // the path as it is: nothing changed yet
          }
          const ids = ev.path ? [...ev.path.nodes.map((n) => n.id), ...ev.path.steps.map((s) => s.relation.id)] : [pair.from.id, pair.to.id];
          const words: Record<string, string> = {
            APPEARED: "a path appeared",
            SHORTER: "the shortest path is shorter",
            LONGER: "the shortest path was cut; the next is longer",
            CHANGED: "another path replaced the shortest",
            DISAPPEARED: "the path is gone",
          };
          const length = ev.path ? ` (${ev.path.length} ${ev.path.length === 1 ? "step" : "steps"}: ${ev.path.nodes.map(entityName).join(" → ")})` : "";
          this.record(`Path ${entityName(pair.from)} → ${entityName(pair.to)}: ${words[ev.kind] ?? ev.kind.toLowerCase()}${length}`, ids);
        },
        error: () => this.state(this.describe() + "; the path watch ended"),
        complete: () => {},
      },
    );
  }

  private refused(errors: GraphQLErrorLike[]): void {
    const code = errors[0]?.extensions?.code ?? "";
    this.entities = code === "FORBIDDEN" ? "forbidden" : `${code || "error"}: ${errors[0]?.message ?? ""}`;
    this.state(this.describe());
  }

  private describe(): string {
    const paths = this.pair ? "the path shown" : "no path (find one in Paths)";
    if (this.entities === "forbidden") return `watching ${paths}; entities' changes need an editor's key`;
    if (this.entities === "changes") return `watching the entities drawn and ${paths}`;
    if (this.entities) return `watching ${paths}; entities: ${this.entities}`;
    return "connecting…";
  }

  /** changed records a change of the audit log when it touches what is drawn. */
  private async changed(c: NonNullable<ChangeEvent["changes"]["change"]>): Promise<void> {
    const cy = this.canvas.cy;
    const drawn = c.targets.filter((id) => cy.getElementById(id).nonempty());
    if (drawn.length === 0) return;
    const first = cy.getElementById(drawn[0]);
    let what: string;
    if (first.isEdge()) {
      const type = first.data("relation")?.type as string | undefined;
      what = `relation ${(type && this.vocabulary.get(type)?.label) ?? type ?? first.id()} of ${label(first.source() as NodeSingular)} and ${label(first.target() as NodeSingular)}`;
    } else {
      what = label(first as NodeSingular);
    }
    const fields = c.fields.map((f) => f.field).join(", ");
    this.record(`${c.operation}: ${what}${fields ? ` (${fields})` : ""}`, drawn, new Date(c.at));
    if (c.operation === "upsertEntity" && first.isNode()) await this.reread(first as NodeSingular);
  }

  /** reread reads a changed entity's name again, so that the canvas shows it as it is now. */
  private async reread(n: NodeSingular): Promise<void> {
    try {
      const { entity } = await gql<{ entity: EntityRef | null }>(`query LiveEntity($id: ID!) { entity(id: $id) { ...Ref } }`, { id: n.id() });
      const d = n.data() as NodeData;
      if (!entity || entity.redacted || entity.name === d.name) return;
      n.data({ name: entity.name, label: String(d.label).replace(d.name, entity.name) });
    } catch {
      // the badge says it changed; the name is read again on the next expansion
    }
  }

  private record(text: string, ids: string[], at = new Date()): void {
    this.changes.unshift({ at, text, ids });
    for (const id of ids) this.marked.add(id);
    this.remark();
    this.list();
  }

  /** remark puts the badge on every drawn element that changed. */
  private remark(): void {
    const cy = this.canvas.cy;
    cy.batch(() => {
      for (const id of this.marked) {
        const el = cy.getElementById(id);
        if (el.empty()) continue;
        el.addClass("live-changed");
        if (el.isNode()) mark(el as NodeSingular);
        else (el as EdgeSingular).style({ "line-color": changedColour, "target-arrow-color": changedColour });
      }
    });
  }

  private clearMarks(): void {
    const cy = this.canvas.cy;
    cy.batch(() => {
      const els = cy.elements(".live-changed");
      els.removeClass("live-changed");
      els.nodes().removeStyle("background-image background-width background-height background-position-x background-position-y background-clip background-image-containment bounds-expansion");
      els.edges().removeStyle("line-color target-arrow-color");
    });
    this.marked.clear();
  }

  private list(): void {
    const time = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    const summary = this.control.querySelector("#live-summary");
    if (summary) summary.textContent = `Changes (${this.changes.length})`;
    const list = this.control.querySelector("#live-changes");
    if (!list) return;
    replace(
      list,
      this.changes.map((c) =>
        h(
          "li",
          {},
          h("time", { datetime: c.at.toISOString(), class: "timeline-date" }, time.format(c.at)),
          h("button", { type: "button", class: "link", title: "Select it on the canvas", onclick: () => this.canvas.select(c.ids.filter((id) => this.canvas.node(id))) }, c.text),
        ),
      ),
    );
  }

  private close(): void {
    this.stopPath?.();
    this.stopPath = null;
    for (const stop of this.stops) stop();
    this.stops = [];
    void this.client?.dispose();
    this.client = null;
  }

  private state(text: string): void {
    const el = this.control.querySelector("#live-state");
    if (el) el.textContent = text;
  }
}

function mark(n: NodeSingular): void {
  n.style({
    "background-image": badge,
    "background-width": 14,
    "background-height": 14,
    "background-position-x": "100%",
    "background-position-y": "0%",
    "background-clip": "none",
    "background-image-containment": "over",
    "bounds-expansion": 8,
  });
}

function label(n: NodeSingular): string {
  const d = n.data() as NodeData;
  return d.redacted ? "Protected person" : d.name;
}
