// Analyse: degree and betweenness centrality and communities of what is
// drawn (the entities not hidden and the relations among them), computed by
// Cytoscape's own graph algorithms and shown as styling: size by the
// centrality chosen, colour by community, with a small legend. Styling is
// set as element overrides, so it survives the canvas's own stylesheet and
// goes when Analyse is set back to nothing.
import type { Collection, NodeCollection, NodeSingular } from "cytoscape";
import type { Canvas, NodeData } from "./canvas";
import { h, replace } from "./dom";

/** Measure is what the Analyse control shows. */
export type Measure = "none" | "degree" | "betweenness" | "communities" | "degree+communities" | "betweenness+communities";

const measures: Record<Measure, string> = {
  none: "Nothing",
  degree: "Size by degree",
  betweenness: "Size by betweenness",
  communities: "Colour by community",
  "degree+communities": "Degree and communities",
  "betweenness+communities": "Betweenness and communities",
};

/** Sizes of an analysed entity, from the least central to the most (the canvas draws 28). */
const smallest = 18;
const largest = 64;

/**
 * maxClustered is the most entities Markov clustering runs on: it works on
 * a dense matrix (n² memory, n³ a step). Measured in Node on a random graph
 * of 1.5 relations an entity, on a loaded 2-core machine: 0.3 s at 100
 * entities, 2.8 s at 250, 25 s at 500.
 */
export const maxClustered = 150;

/**
 * maxBetweenness is the most entities betweenness runs on (Brandes, n·m):
 * measured as above, 12 s at 1,000 entities; degree took 0.18 s there.
 */
export const maxBetweenness = 400;

/** Community colours: Okabe and Ito's, told apart in every common colour blindness; the ninth community on is grey. */
const palette = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#000000"];
const others = "#bbbbbb";

/** Analysis is the Analyse control and the styling it puts on the canvas. */
export class Analysis {
  measure: Measure = "none";
  private timer = 0;
  private styled: NodeCollection;

  constructor(
    private canvas: Canvas,
    private control: HTMLElement,
    private legend: HTMLElement,
  ) {
    this.styled = canvas.cy.collection();
    const select = h(
      "select",
      { id: "analyse", "aria-describedby": "analyse-legend", onchange: (ev: Event) => this.set((ev.target as HTMLSelectElement).value as Measure) },
      Object.entries(measures).map(([value, label]) => h("option", { value }, label)),
    );
    replace(control, h("label", { for: "analyse" }, "Analyse "), select);
    // What is drawn changes: analyse again, once the changes settle.
    canvas.onChange(() => {
      if (this.measure === "none") return;
      clearTimeout(this.timer);
      this.timer = window.setTimeout(() => this.apply(), 150);
    });
  }

  /** set chooses what to show, and shows it. */
  set(m: Measure): void {
    this.measure = m in measures ? m : "none";
    (this.control.querySelector("#analyse") as HTMLSelectElement).value = this.measure;
    this.apply();
  }

  /** apply computes the measure over what is drawn and styles the canvas by it. */
  apply(): void {
    clearTimeout(this.timer);
    const cy = this.canvas.cy;
    cy.batch(() => {
      this.styled.removeStyle("width height background-color");
      this.styled.removeData("centrality community");
      this.styled = cy.collection();
      if (this.measure === "none") return replace(this.legend);
      const drawn = cy.nodes(":visible");
      const eles = drawn.union(drawn.edgesWith(drawn).filter(":visible"));
      const legend: (HTMLElement | string)[] = [];
      const size = this.measure.startsWith("degree") ? "degree" : this.measure.startsWith("betweenness") ? "betweenness" : "";
      if (size) legend.push(this.size(eles, size));
      if (this.measure.endsWith("communities")) legend.push(this.communities(eles));
      this.styled = drawn;
      replace(this.legend, legend);
    });
  }

  /** size sets each entity's size by its centrality (normalised to 0..1 over what is drawn). */
  private size(eles: Collection, by: "degree" | "betweenness"): HTMLElement {
    const nodes = eles.nodes();
    if (by === "betweenness" && nodes.length > maxBetweenness) {
      return h("span", { class: "analyse-size" }, `size: betweenness not computed for ${nodes.length} entities (at most ${maxBetweenness}: hide some, or size by degree)`);
    }
    const of: (n: NodeSingular) => number =
      by === "degree"
        ? (() => {
            const dc = eles.degreeCentralityNormalized({ directed: false, weight: () => 1 }) as { degree(n: NodeSingular): number };
            return (n) => dc.degree(n);
          })()
        : (() => {
            const bc = eles.betweennessCentrality({ directed: false });
            return (n) => bc.betweennessNormalized(n);
          })();
    let top: NodeSingular | null = null;
    nodes.forEach((n) => {
      const v = Number.isFinite(of(n)) ? of(n) : 0;
      const px = Math.round(smallest + (largest - smallest) * Math.sqrt(v));
      n.data("centrality", v);
      n.style({ width: px, height: px });
      if (!top || v > (top.data("centrality") as number)) top = n;
    });
    const name = top ? label(top) : "";
    return h(
      "span",
      { class: "analyse-size" },
      h("span", { class: "analyse-dot small", "aria-hidden": "true" }),
      h("span", { class: "analyse-dot large", "aria-hidden": "true" }),
      ` size: ${by === "degree" ? "degree centrality (relations drawn)" : "betweenness centrality (shortest paths through it)"}`,
      name ? `; most central: ${name}` : "",
    );
  }

  /** communities colours each entity by its Markov cluster, the largest first. */
  private communities(eles: Collection): HTMLElement {
    const nodes = eles.nodes();
    if (nodes.length > maxClustered) {
      return h("span", { class: "analyse-communities" }, ` communities: not computed for ${nodes.length} entities (at most ${maxClustered}: hide some, or remove them)`);
    }
    const clusters = eles.markovClustering({ attributes: [() => 1] }).sort((a, b) => b.length - a.length);
    const swatches: HTMLElement[] = [];
    clusters.forEach((c, i) => {
      const colour = palette[i] ?? others;
      c.forEach((n) => {
        n.data("community", i + 1);
        n.style("background-color", colour);
      });
      if (i < palette.length) {
        const swatch = h("span", { class: "analyse-swatch", "aria-hidden": "true" });
        swatch.style.setProperty("background-color", colour);
        swatches.push(h("span", { class: "analyse-community" }, swatch, `${mostConnected(c)} (${c.length})`));
      }
    });
    const rest = clusters.length - palette.length;
    return h(
      "span",
      { class: "analyse-communities" },
      ` ${clusters.length} ${clusters.length === 1 ? "community" : "communities"}: `,
      swatches,
      rest > 0 ? ` and ${rest} more in grey` : "",
    );
  }
}

/** mostConnected names a community by its member with the most relations inside it. */
function mostConnected(c: NodeCollection): string {
  let best: NodeSingular | null = null;
  let most = -1;
  c.nodes().forEach((n) => {
    const d = n.edgesWith(c).length;
    if (d > most) [best, most] = [n, d];
  });
  return best ? label(best) : "";
}

function label(n: NodeSingular): string {
  const d = n.data() as NodeData;
  return d.redacted ? "Protected person" : d.name;
}
