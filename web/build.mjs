// Builds the explorer and the offline GraphiQL page into dist/, which the
// Go binary embeds (web/web.go). Run by `make web`; the output is committed
// and `make check-web` fails when it is stale, so `make run` needs no Node.
//
// Assets get content-hashed names (served as immutable); the two HTML
// pages are written from src/pages with those names filled in. The build
// is deterministic: the same sources and lockfile give the same bytes.
//
// The map's country outlines (world-atlas's TopoJSON of Natural Earth) are
// not bundled: imported, the file is copied into assets under a hashed
// name and the import is its address, which the explorer reads the first
// time the map layout is chosen (src/explorer/map.ts).
import * as esbuild from "esbuild";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const dist = path.join(here, "dist");
const assets = path.join(dist, "assets");

/** outlines copies world-atlas's files into assets instead of bundling them: the import is the copy's address. */
const outlines = {
  name: "outlines",
  setup(build) {
    build.onLoad({ filter: /[\\/]world-atlas[\\/][^\\/]+\.json$/ }, async (args) => ({ contents: await readFile(args.path), loader: "file" }));
  },
};

await rm(dist, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

const result = await esbuild.build({
  absWorkingDir: here,
  entryPoints: {
    explorer: "src/explorer/main.ts",
    graphiql: "src/graphiql/main.tsx",
  },
  bundle: true,
  // `node build.mjs --dev` leaves the code readable (for debugging; never commit it).
  minify: !process.argv.includes("--dev"),
  format: "iife",
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  outdir: assets,
  entryNames: "[name]-[hash]",
  assetNames: "[name]-[hash]",
  plugins: [outlines],
  // Fonts and images referenced by CSS travel inside it: one file fewer,
  // and nothing for the CSP to allow beyond 'self' and data:.
  loader: { ".woff": "dataurl", ".woff2": "dataurl", ".svg": "dataurl", ".png": "dataurl" },
  legalComments: "external",
  define: { "process.env.NODE_ENV": '"production"' },
  jsx: "automatic",
  metafile: true,
  logLevel: "warning",
});

// The file each entry point became, by entry and extension.
const built = {};
for (const [out, meta] of Object.entries(result.metafile.outputs)) {
  if (!meta.entryPoint && !meta.cssBundle) continue;
  const name = path.basename(out);
  const entry = name.slice(0, name.indexOf("-"));
  built[`${entry}${path.extname(out)}`] = `/assets/${name}`;
  if (meta.cssBundle) built[`${entry}.css`] = `/assets/${path.basename(meta.cssBundle)}`;
}

for (const page of ["index.html", "graphiql.html"]) {
  let html = await readFile(path.join(here, "src/pages", page), "utf8");
  html = html.replace(/\{\{([a-z]+\.(?:js|css))\}\}/g, (_, key) => {
    if (!built[key]) throw new Error(`${page}: no built asset for ${key}`);
    return built[key];
  });
  await writeFile(path.join(dist, page), html);
}
// The outlines' licence goes beside the explorer's (a file copied carries
// no comment): world-atlas asks for its notice with every copy; Natural
// Earth's data is in the public domain.
for (const [out, meta] of Object.entries(result.metafile.outputs)) {
  const input = Object.keys(meta.inputs ?? {}).find((i) => i.includes("world-atlas/"));
  if (!input || meta.entryPoint) continue;
  const licence = await readFile(path.join(here, "node_modules/world-atlas/LICENSE"), "utf8");
  const note = `${path.basename(out)}: world-atlas 2.0.2, ${path.basename(input)} (Natural Earth's Admin 0 countries, public domain; made with Natural Earth, naturalearthdata.com)\n\n${licence}`;
  await writeFile(path.join(dist, out.slice(out.indexOf("assets/")) + ".LEGAL.txt"), note);
  built[`outlines${path.extname(out)}`] = `/assets/${path.basename(out)}`;
}

// Sizes as sent and gzipped (the explorer's budget is 400 KB gzipped; the outlines are read when the map is first chosen).
for (const [key, url] of Object.entries(built)) {
  const body = await readFile(path.join(dist, url));
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`${key.padEnd(13)} ${url.padEnd(34)} ${kb(body.length).padStart(10)} ${kb(gzipSync(body, { level: 9 }).length).padStart(10)} gzipped`);
}
