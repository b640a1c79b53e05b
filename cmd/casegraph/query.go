package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// varsFlag collects repeated --var name=value.
type varsFlag []string

func (v *varsFlag) String() string { return strings.Join(*v, ",") }
func (v *varsFlag) Set(s string) error {
	if !strings.Contains(s, "=") || strings.HasPrefix(s, "=") {
		return fmt.Errorf("want name=value")
	}
	*v = append(*v, s)
	return nil
}

// runQuery is `casegraph query list | show NAME | run NAME`: saved queries
// on a running server, over HTTP.
func runQuery(ctx context.Context, args []string, e env) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(e.stdout, `Usage:
  casegraph query list [--tag TAG]
  casegraph query show NAME [--version N]
  casegraph query run NAME [--version N] [--var name=value ...] [--format json|csv|tsv|table] [--rows PATH]

Saved queries on a running server (--url, or $CASEGRAPH_URL, or within a checkout the
server its make run recorded in .casegraph.env, default http://127.0.0.1:8080), as the
holder of $CASEGRAPH_TOKEN (an API key or a token; sent as Authorization: Bearer).
An error in the answer (an id that names nothing: NOT_FOUND) is said on stderr, exit
code 1; an answer without rows is said to be empty, exit code 0.
A variable given twice is a list; an input object is given as JSON. The tables (csv, tsv,
table) follow the server's table rule (README, "Saved queries"); --rows names the list
whose elements are the rows.`)
		return nil
	}
	sub, rest := args[0], args[1:]
	fs := flag.NewFlagSet("query "+sub, flag.ContinueOnError)
	base := e.getenv("CASEGRAPH_URL")
	if base == "" {
		base = "http://127.0.0.1:8080"
	}
	fs.StringVar(&base, "url", base, "server address ($CASEGRAPH_URL)")
	timeout := fs.Duration("timeout", 30*time.Second, "deadline of the request")
	tag := fs.String("tag", "", "list: only queries with this tag")
	version := fs.Int("version", 0, "show, run: this version (default: the latest)")
	format := fs.String("format", "table", "run: json, csv, tsv or table")
	rows := fs.String("rows", "", "run, as a table: the list whose elements are the rows (a dotted path, as rows= of GET /queries)")
	var vars varsFlag
	fs.Var(&vars, "var", "run: a variable, name=value (repeat for more, or for a list)")

	// Flags may come after the name: parse around it.
	var name string
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		name, rest = rest[0], rest[1:]
	}
	maxArgs := 0
	if name == "" {
		maxArgs = 1
	}
	if err := parseFlags(fs, rest, e, "saved queries on a running server", maxArgs); err != nil {
		return err
	}
	if name == "" {
		name = fs.Arg(0)
	}
	c := &httpClient{base: strings.TrimRight(base, "/"), token: e.getenv("CASEGRAPH_TOKEN"), client: &http.Client{Timeout: *timeout}}
	switch sub {
	case "list":
		return c.list(ctx, e.stdout, e.stderr, *tag)
	case "show":
		if name == "" {
			return usagef("query show: name the query")
		}
		return c.show(ctx, e.stdout, name, *version)
	case "run":
		if name == "" {
			return usagef("query run: name the query")
		}
		if *format != "json" && *format != "csv" && *format != "tsv" && *format != "table" {
			return usagef("query run: format must be json, csv, tsv or table")
		}
		return c.run(ctx, e.stdout, e.stderr, name, *version, vars, *format, *rows)
	}
	return usagef("query: unknown command %q (list, show or run)", sub)
}

type httpClient struct {
	base   string
	token  string // sent as a bearer token when set
	client *http.Client
}

// do sends a request with the client's credentials.
func (c *httpClient) do(req *http.Request) (*http.Response, error) {
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return c.client.Do(req)
}

// graphql posts a GraphQL document with its variables and decodes data
// into out, or returns the first error's message and code.
func (c *httpClient) graphql(ctx context.Context, document string, vars map[string]any, out any) error {
	body, _ := json.Marshal(map[string]any{"query": document, "variables": vars})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.do(req)
	if err != nil {
		return fmt.Errorf("the server at %s: %w", c.base, err)
	}
	defer res.Body.Close()
	var resp struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.NewDecoder(res.Body).Decode(&resp); err != nil {
		return fmt.Errorf("the server at %s answered %s, not GraphQL", c.base, res.Status)
	}
	if len(resp.Errors) > 0 {
		return fmt.Errorf("%s (%v)", resp.Errors[0].Message, resp.Errors[0].Extensions["code"])
	}
	return json.Unmarshal(resp.Data, out)
}

func (c *httpClient) list(ctx context.Context, w, stderr io.Writer, tag string) error {
	var data struct {
		SavedQueries struct {
			Edges []struct {
				Node struct {
					Name    string   `json:"name"`
					Version int      `json:"version"`
					Title   string   `json:"title"`
					Tags    []string `json:"tags"`
				} `json:"node"`
			} `json:"edges"`
		} `json:"savedQueries"`
	}
	var t any
	if tag != "" {
		t = tag
	}
	if err := c.graphql(ctx, `query($tag: String) { savedQueries(tag: $tag, first: 100) { edges { node { name version title tags } } } }`,
		map[string]any{"tag": t}, &data); err != nil {
		return err
	}
	if len(data.SavedQueries.Edges) == 0 {
		// Said, as any empty answer is; the header is still printed.
		if tag != "" {
			fmt.Fprintf(stderr, "query list: no saved query has the tag %q\n", tag)
		} else {
			fmt.Fprintln(stderr, "query list: there are no saved queries (that this caller may read)")
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tTITLE\tTAGS")
	for _, e := range data.SavedQueries.Edges {
		n := e.Node
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", n.Name, n.Version, n.Title, strings.Join(n.Tags, ","))
	}
	return tw.Flush()
}

func (c *httpClient) show(ctx context.Context, w io.Writer, name string, version int) error {
	var data struct {
		SavedQuery *struct {
			Name             string          `json:"name"`
			Version          int             `json:"version"`
			Title            string          `json:"title"`
			Description      *string         `json:"description"`
			Document         string          `json:"document"`
			DefaultVariables json.RawMessage `json:"defaultVariables"`
			Tags             []string        `json:"tags"`
		} `json:"savedQuery"`
	}
	var v any
	if version > 0 {
		v = version
	}
	if err := c.graphql(ctx, `query($n: String!, $v: Int) { savedQuery(name: $n, version: $v) { name version title description document defaultVariables tags } }`,
		map[string]any{"n": name, "v": v}, &data); err != nil {
		return err
	}
	q := data.SavedQuery
	if q == nil {
		if version > 0 {
			return fmt.Errorf("query show: no saved query %q at version %d (NOT_FOUND)", name, version)
		}
		return fmt.Errorf("query show: no saved query %q (NOT_FOUND)", name)
	}
	fmt.Fprintf(w, "%s, version %d: %s\n", q.Name, q.Version, q.Title)
	if q.Description != nil {
		fmt.Fprintf(w, "%s\n", *q.Description)
	}
	if len(q.Tags) > 0 {
		fmt.Fprintf(w, "tags: %s\n", strings.Join(q.Tags, ", "))
	}
	fmt.Fprintf(w, "default variables: %s\n\n%s\n", q.DefaultVariables, q.Document)
	return nil
}

// run runs a saved query and writes its answer to w. Errors in the answer
// (NOT_FOUND for a misspelt id, partial data) are the command's error,
// after whatever rows came: a script can tell them from an answer by the
// exit status. An answer without rows is said to be empty, on stderr.
func (c *httpClient) run(ctx context.Context, w, stderr io.Writer, name string, version int, vars []string, format, rowsPath string) error {
	q := url.Values{}
	for _, kv := range vars {
		k, v, _ := strings.Cut(kv, "=")
		q.Add(k, v)
	}
	if version > 0 {
		q.Set("version", fmt.Sprint(version))
	}
	wire := format
	if format == "table" {
		wire = "csv"
	}
	if rowsPath != "" {
		q.Set("rows", rowsPath)
	}
	body, header, err := c.runSaved(ctx, name, q, wire)
	if err != nil {
		return err
	}
	var msgs []string
	empty := false
	switch format {
	case "json":
		msgs, empty = jsonAnswer(body)
		var out bytes.Buffer
		if json.Indent(&out, body, "", "  ") != nil {
			out.Write(body)
		}
		out.WriteByte('\n')
		if _, err := w.Write(out.Bytes()); err != nil {
			return err
		}
	case "csv", "tsv", "table":
		rows, err := tableRows(body, format)
		if err != nil {
			return err
		}
		empty = len(rows) <= 1 // the header alone
		if format == "table" {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			for _, row := range rows {
				fmt.Fprintln(tw, strings.Join(row, "\t"))
			}
			err = tw.Flush()
		} else {
			_, err = w.Write(body)
		}
		if err != nil {
			return err
		}
		if header.Get("X-Casegraph-Errors") != "" || empty {
			// A table carries no messages, nor says which field was null:
			// ask for them as JSON (a saved query only reads, so running
			// it again changes nothing).
			jsonBody, _, err := c.runSaved(ctx, name, q, "json")
			if err != nil {
				return err
			}
			msgs, _ = jsonAnswer(jsonBody)
			if len(msgs) == 0 && header.Get("X-Casegraph-Errors") != "" {
				msgs = []string{header.Get("X-Casegraph-Errors") + " errors (the server sent the table without them)"}
			}
		}
	}
	if len(msgs) > 0 {
		what := ""
		if !empty {
			what = "a partial answer (the rows above): "
		}
		more := ""
		if len(msgs) > 1 {
			more = fmt.Sprintf("; and %d more: %s", len(msgs)-1, strings.Join(msgs[1:], "; "))
		}
		return fmt.Errorf("query run %s: %s%s%s", name, what, msgs[0], more)
	}
	if empty {
		fmt.Fprintf(stderr, "query run %s: the answer is empty (no rows)\n", name)
	}
	return nil
}

// runSaved sends GET /queries/NAME in a format and returns the answer of
// a 200; any other status is an error with the server's message.
func (c *httpClient) runSaved(ctx context.Context, name string, q url.Values, format string) ([]byte, http.Header, error) {
	q = maps.Clone(q)
	q.Set("format", format)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/queries/"+url.PathEscape(name)+"?"+q.Encode(), nil)
	if err != nil {
		return nil, nil, err
	}
	res, err := c.do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("the server at %s: %w", c.base, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, err
	}
	if res.StatusCode != http.StatusOK {
		if msgs, _ := jsonAnswer(body); len(msgs) > 0 {
			return nil, nil, fmt.Errorf("%s (%s)", msgs[0], res.Status)
		}
		return nil, nil, fmt.Errorf("the server answered %s", res.Status)
	}
	return body, res.Header, nil
}

// lookupFields are the root fields that find one thing by its id: their
// null is "no such id" (or none the caller may read), as NOT_FOUND is
// elsewhere; another field's null (shortestPath's) is an empty answer.
var lookupFields = map[string]string{"entity": "entity", "relation": "relation", "source": "source", "node": "entity, relation or source"}

// jsonAnswer reads a GraphQL answer's errors, each as "message (CODE)",
// and whether its data is empty: nothing, or every top-level field null or
// an empty list. A lookup field's null is an error too.
func jsonAnswer(body []byte) (msgs []string, empty bool) {
	var resp struct {
		Data   map[string]json.RawMessage `json:"data"`
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &resp) != nil {
		return nil, false
	}
	for _, e := range resp.Errors {
		msg := e.Message
		if code, ok := e.Extensions["code"].(string); ok {
			msg += " (" + code + ")"
		}
		msgs = append(msgs, msg)
	}
	empty = true
	for _, k := range slices.Sorted(maps.Keys(resp.Data)) {
		s := string(bytes.TrimSpace(resp.Data[k]))
		if s != "null" && s != "[]" {
			empty = false
		}
		if what, ok := lookupFields[k]; ok && s == "null" && len(resp.Errors) == 0 {
			msgs = append(msgs, fmt.Sprintf("%s: no %s with the id given, or none this caller may read (NOT_FOUND)", k, what))
		}
	}
	return msgs, empty
}

// tableRows parses a CSV or TSV answer into its rows, the header first.
// A TSV answer escapes tabs and line ends in its fields: a row a line.
func tableRows(body []byte, format string) ([][]string, error) {
	if format == "tsv" {
		var rows [][]string
		for line := range strings.SplitSeq(strings.TrimSuffix(string(body), "\n"), "\n") {
			if line != "" {
				rows = append(rows, strings.Split(strings.TrimSuffix(line, "\r"), "\t"))
			}
		}
		return rows, nil
	}
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("the server's %s: %w", strings.ToUpper(format), err)
	}
	return rows, nil
}
