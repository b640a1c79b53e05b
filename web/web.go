// Package web holds the explorer and the offline GraphiQL page, built from
// web/src by `make web` (esbuild) into dist/ and embedded in the binary, so
// the pages need neither Node nor any other host at run time.
package web

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// Pages are the HTML pages, by name: index.html (the explorer) and
// graphiql.html.
var Pages = mustSub("dist")

// Assets are the scripts and stylesheets the pages load, under
// content-hashed names (so they may be cached for good).
var Assets = mustSub("dist/assets")

func mustSub(dir string) fs.FS {
	sub, err := fs.Sub(dist, dir)
	if err != nil {
		panic(err) // dist is embedded: a missing folder is a broken build
	}
	return sub
}
