// The country outlines (world-atlas's 1:110m TopoJSON): the build
// (build.mjs) copies the file into dist/assets under a content-hashed
// name, and importing it gives its address there, relative to the
// explorer's script.
declare module "world-atlas/countries-110m.json" {
  const url: string;
  export default url;
}
