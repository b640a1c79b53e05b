package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// configDocPath is where `make docs` writes writeConfigMarkdown's page,
// relative to the repository.
const configDocPath = "docs/configuration.md"

// writeConfigMarkdown writes docs/configuration.md from the binder: every
// setting of serve, group by group, with its variable, its flag, its
// default and its usage, the text --help shows. The page is a rendering,
// never edited by hand, so the settings have one description.
func writeConfigMarkdown(w io.Writer) error {
	cfg := defaultServeConfig()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var bound []setting
	b := binder{fs: fs, getenv: func(string) string { return "" }, bound: &bound}
	cfg.register(&b)
	if b.err != nil {
		return b.err
	}
	var out strings.Builder
	out.WriteString(`# Configuration

<!-- Rendered from the flag binder (cmd/casegraph/config.go) by make docs: edit the usage text there, not here. -->

Every setting of ` + "`bin/casegraph serve`" + ` is read from an environment variable,
and its flag overrides it (` + "`--addr` or `-addr`" + `); ` + "`bin/casegraph serve --help`" + `
prints the same text. A bad value is a one-line error and exit code 2.
The commands that reach the database directly (migrate, seed, import,
export, key, dataset, audit) take the Neo4j and log settings, with
` + "`--wait`" + ` (how long to wait for Neo4j) and ` + "`--timeout`" + ` (the whole command's
deadline); ` + "`bin/casegraph query`" + ` takes ` + "`CASEGRAPH_URL`" + ` and ` + "`CASEGRAPH_TOKEN`" + `
([the researcher's guide](researcher.md#the-command-line)). Run within a
checkout where ` + "`make run`" + ` ran, a command takes ` + "`NEO4J_URI`" + ` and
` + "`CASEGRAPH_URL`" + ` from its ` + "`.casegraph.env`" + ` where neither a flag nor the
environment sets them ([getting started](getting-started.md#the-command-line-finds-this-checkouts-instance)).
`)
	var last settingGroup
	for _, s := range bound {
		if s.group != last {
			last = s.group
			fmt.Fprintf(&out, "\n## %s\n\n", s.group.title)
			if s.group.note != "" {
				fmt.Fprintf(&out, "%s\n\n", s.group.note)
			}
			out.WriteString("| variable | flag | default | |\n|---|---|---|---|\n")
		}
		def := "(none)"
		if v := fs.Lookup(s.flag).DefValue; v != "" {
			def = "`" + shortDuration(v) + "`"
		}
		fmt.Fprintf(&out, "| `%s` | `--%s` | %s | %s |\n", s.env, s.flag, def, markdownCell(s.usage))
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// shortDuration drops the zero units time.Duration prints (10m0s, 1h0m0s),
// which parse the same without them.
func shortDuration(v string) string {
	for _, zero := range []string{"m0s", "h0m"} {
		if strings.HasSuffix(v, zero) && len(v) > len(zero) && v[len(v)-len(zero)-1] >= '0' && v[len(v)-len(zero)-1] <= '9' {
			v = strings.TrimSuffix(v, zero[1:])
		}
	}
	return v
}

// markdownCell escapes what would end a table cell or start emphasis
// (an underscore that begins a word: __schema).
func markdownCell(s string) string {
	var out strings.Builder
	for i, r := range s {
		switch {
		case r == '|' || r == '*':
			out.WriteByte('\\')
		case r == '_' && (i == 0 || strings.ContainsRune(" (_", rune(s[i-1]))):
			out.WriteByte('\\')
		case r == '<':
			out.WriteString("&lt;")
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}
