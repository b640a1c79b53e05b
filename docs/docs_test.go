// Package docs is the manual, by reader; the README is its front page.
// Its tests hold the manual to the code: every relative link leads to a
// file and heading that exist, and every example runs as written against
// a server started as `make run` starts one (examples_test.go).
package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pages are the manual's files, in the order a reader meets them and the
// examples run: a page's examples may use the files an earlier one wrote.
func pages(t *testing.T) []string {
	t.Helper()
	out := []string{"../README.md"}
	for _, name := range []string{"getting-started", "analyst", "frontend", "researcher", "operator", "configuration", "development", "architecture"} {
		out = append(out, name+".md")
	}
	found, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		if !contains(out, f) {
			t.Errorf("docs/%s is not among the pages the tests read: add it to pages()", f)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// block is one fenced block of a page: ```lang flags...
type block struct {
	page  string
	line  int // of the opening fence
	lang  string
	flags []string
	body  string
}

func (b block) String() string { return fmt.Sprintf("%s:%d", b.page, b.line) }

func (b block) has(flag string) bool { return contains(b.flags, flag) }

// runnable says whether the examples test runs b: sh and graphql blocks,
// unless marked norun; an output block shows what the block before it
// prints.
func (b block) runnable() bool {
	return (b.lang == "sh" || b.lang == "graphql") && !b.has("norun") && !b.has("output")
}

var fence = regexp.MustCompile("^( *)```(.*)$")

// blocks reads a page's fenced blocks; a block inside a list is indented,
// and its indentation is dropped.
func blocks(t *testing.T, page string) []block {
	t.Helper()
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	var open *block
	indent := ""
	var body []string
	for i, line := range strings.Split(string(text), "\n") {
		m := fence.FindStringSubmatch(line)
		if open == nil {
			if m == nil {
				continue
			}
			words := strings.Fields(m[2])
			open = &block{page: filepath.Base(page), line: i + 1}
			if len(words) > 0 {
				open.lang, open.flags = words[0], words[1:]
			}
			indent, body = m[1], nil
			continue
		}
		if m != nil && m[2] == "" && len(m[1]) <= len(indent) {
			open.body = strings.Join(body, "\n") + "\n"
			out = append(out, *open)
			open = nil
			continue
		}
		body = append(body, strings.TrimPrefix(line, indent))
	}
	if open != nil {
		t.Errorf("%s: a block is never closed", open)
	}
	return out
}

// TestBlocks: every fenced block says what it is, and an output block
// follows the example whose output it shows.
func TestBlocks(t *testing.T) {
	known := map[string]bool{"sh": true, "graphql": true, "json": true, "text": true, "ndjson": true, "csv": true}
	for _, page := range pages(t) {
		bs := blocks(t, page)
		for i, b := range bs {
			if b.lang != "" && !known[b.lang] {
				t.Errorf("%s: block of unknown language %q", b, b.lang)
			}
			for _, f := range b.flags {
				if f != "norun" && f != "output" {
					t.Errorf("%s: unknown flag %q (want norun or output)", b, f)
				}
			}
			if b.has("output") && (i == 0 || !bs[i-1].runnable()) {
				t.Errorf("%s: an output block must follow a runnable example", b)
			}
		}
	}
}

var (
	link    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`^#{1,6} +(.+?) *$`)
)

// TestLinks: every relative link of the manual leads to a file that
// exists, and its #anchor to one of that page's headings.
func TestLinks(t *testing.T) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := map[string]bool{}
		text, err := os.ReadFile(path)
		if err == nil {
			inFence := false
			for _, line := range strings.Split(string(text), "\n") {
				if fence.MatchString(line) {
					inFence = !inFence
				}
				if m := heading.FindStringSubmatch(line); m != nil && !inFence {
					a[slug(m[1])] = true
				}
			}
		}
		anchors[path] = a
		return a
	}
	for _, page := range pages(t) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %s: no file %s", page, target, path)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path)[anchor] {
				t.Errorf("%s: link %s: %s has no heading #%s", page, target, path, anchor)
			}
		}
	}
}

// slug is GitHub's anchor of a heading: lower case, code marks and
// punctuation dropped, spaces to hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
