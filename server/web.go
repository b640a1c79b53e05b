package server

// The explorer's and GraphiQL's pages and assets, with their content
// security policy.

import (
	"bytes"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/web"
)

// contentSecurityPolicy is the policy of the explorer and GraphiQL: scripts
// and styles from this origin only (no inline script, no eval), requests to
// this origin only, images from here or made in the page (exports), no
// frames, no plugins, no forms posting elsewhere. Nothing on the pages may
// reach another host, and an injected tag could run nothing.
// Cytoscape would add a style element of its own; the explorer's
// stylesheet holds its rule instead (web/src/pages/index.html), so
// style-src needs no 'unsafe-inline'. Cytoscape, React and GraphiQL's
// editor set styles through the CSSOM, which a policy does not govern.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; " +
	"frame-ancestors 'none'; object-src 'none'"

// pageHeaders are the headers of every page and asset of the web UI.
func pageHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

// page serves one of the embedded HTML pages. A page is small and names
// its assets by content hash, so it is revalidated every time while the
// assets are cached for good.
func page(name string) http.Handler {
	body, err := fs.ReadFile(web.Pages, name)
	if err != nil {
		panic("web: the embedded page " + name + " is missing: run make web") // a broken build, caught by every test that builds the server
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pageHeaders(w.Header())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
	})
}

// assets serves the explorer's and GraphiQL's scripts and stylesheets.
func assets() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("file")
		body, err := fs.ReadFile(web.Assets, name)
		if err != nil || name != path.Base(name) {
			writeError(w, http.StatusNotFound, casegraph.CodeNotFound, "no such asset")
			return
		}
		pageHeaders(w.Header())
		ctype := mime.TypeByExtension(path.Ext(name))
		if path.Ext(name) == ".txt" {
			ctype = "text/plain; charset=utf-8"
		}
		w.Header().Set("Content-Type", ctype)
		// Names change with their content: a name always means these bytes.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
	})
}
