// Builds the explorer and the offline GraphiQL page into dist/, which the
// Go binary embeds (web/web.go). Run by `make web`; the output is committed
// and `make check-web` fails when it is stale, so `make run` needs no Node.
//
// Assets get content-hashed names (served as immutable); the two HTML
// pages are written from src/pages with those names filled in. The build
// is deterministic: the same sources and lockfile give the same bytes.
import * as esbuild from "esbuild";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const dist = path.join(here, "dist");
const assets = path.join(dist, "assets");

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
// Sizes as sent and gzipped (the explorer's budget is 400 KB gzipped).
for (const [key, url] of Object.entries(built)) {
  const body = await readFile(path.join(dist, url));
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`${key.padEnd(13)} ${url.padEnd(34)} ${kb(body.length).padStart(10)} ${kb(gzipSync(body, { level: 9 }).length).padStart(10)} gzipped`);
}
