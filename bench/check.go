package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	casegraph "github.com/casegraph/casegraph"
)

// Verdicts of an answer check.
const (
	verdictEqual    = "equal"
	verdictExpected = "differs as expected"
	verdictMismatch = "MISMATCH"
	verdictError    = "ERROR"
)

// checkResult compares one input's answers: Casegraph's with raw's (the
// same statements, so always equal), and Casegraph's with the peer's.
type checkResult struct {
	Workload workload
	Input    int
	in       input
	Raw      string // verdict of casegraph vs raw
	Peer     string // verdict of casegraph vs peer
	Detail   string
}

var equateEmpty = cmpopts.EquateEmpty()

// check asks the first n inputs of the workload from all three systems and
// compares the normalized answers. A mismatch is printed at once, with its
// diff; the table ends with a summary.
func (b *bench) check(ctx context.Context, p *prepared, n int) []checkResult {
	var out []checkResult
	for i := range n {
		in := p.inputs[i]
		res := checkResult{Workload: p.w, Input: i, in: in}
		cgAnswer, cgErr := b.answer(ctx, p, sysCasegraph, i)
		peerAnswer, peerErr := b.answer(ctx, p, sysPeer, i)
		rawAnswer, rawErr := b.answer(ctx, p, sysRaw, i)
		var details []string
		switch {
		case cgErr != nil || rawErr != nil:
			res.Raw = verdictError
			details = append(details, fmt.Sprintf("casegraph: %v; raw: %v", cgErr, rawErr))
		case cmp.Equal(rawAnswer, cgAnswer, equateEmpty):
			res.Raw = verdictEqual
		default:
			res.Raw = verdictMismatch
			details = append(details, "casegraph vs raw (-raw +casegraph):\n"+cmp.Diff(rawAnswer, cgAnswer, equateEmpty))
		}
		switch {
		case cgErr != nil || peerErr != nil:
			res.Peer = verdictError
			details = append(details, fmt.Sprintf("casegraph: %v; peer: %v", cgErr, peerErr))
		default:
			verdict, detail := b.comparePeer(ctx, p.w, in, cgAnswer, peerAnswer)
			res.Peer = verdict
			if detail != "" {
				details = append(details, detail)
			}
		}
		res.Detail = strings.Join(details, "\n")
		if res.Raw != verdictEqual || res.Peer != verdictEqual {
			b.logf("check %s input %d (%s): raw %s, peer %s\n%s", p.w.Key, i, describeInput(in), res.Raw, res.Peer, res.Detail)
		}
		out = append(out, res)
	}
	return out
}

// disagreements counts the inputs whose answers disagree: Casegraph's
// with raw's, or with the peer's beyond the expected differences, or an
// error from any of them.
func disagreements(checks []checkResult) int {
	n := 0
	for _, c := range checks {
		if c.disagrees() {
			n++
		}
	}
	return n
}

func (c checkResult) disagrees() bool {
	return c.Raw == verdictMismatch || c.Peer == verdictMismatch || c.Raw == verdictError || c.Peer == verdictError
}

// answer asks one system for input i and normalizes its answer.
func (b *bench) answer(ctx context.Context, p *prepared, sys, i int) (any, error) {
	switch sys {
	case sysCasegraph:
		data, err := b.cg.data(ctx, p.cgBody[i])
		if err != nil {
			return nil, err
		}
		return p.w.fromCasegraph(data)
	case sysPeer:
		data, err := b.peer.data(ctx, p.peerBody[i])
		if err != nil {
			return nil, err
		}
		return p.w.fromPeer(data)
	default:
		ctx, cancel := context.WithTimeout(ctx, b.raw.timeout)
		defer cancel()
		return p.w.raw(ctx, b.raw, p.inputs[i])
	}
}

// comparePeer compares Casegraph's answer with the peer's. W1 to W3 must
// be equal. W4 differs by design: Casegraph ranks the best 200 full-text
// candidates (exact names first, then the better-connected), the peer
// returns Lucene's first 20 by score; the check is that every hit of the
// peer is one of Casegraph's candidates. W5: the lengths must be equal;
// among paths of equal length, SHORTEST 1 may pick another one.
func (b *bench) comparePeer(ctx context.Context, w workload, in input, cgAnswer, peerAnswer any) (string, string) {
	switch w.Key {
	case "W4":
		cg, peer := cgAnswer.(w4Answer), peerAnswer.(w4Answer)
		if cmp.Equal(cg, peer, equateEmpty) {
			return verdictEqual, ""
		}
		// Every candidate, ranked: a page as long as the window.
		found, err := b.raw.store.Search(b.raw.as(ctx), casegraph.SearchRequest{Words: casegraph.Words(in.Text),
			Page: casegraph.Page{First: casegraph.SearchWindow}, Shows: []string{"name"}})
		if err != nil {
			return verdictError, err.Error()
		}
		hits := found.Results
		candidates := map[string]bool{}
		lowest := math.Inf(1)
		for _, h := range hits {
			candidates[h.Entity.ID] = true
			lowest = min(lowest, h.Score)
		}
		full := len(hits) == casegraph.SearchWindow
		var outside, unexplained []string
		overlap := 0
		for _, h := range peer {
			if slices.ContainsFunc(cg, func(c w4Hit) bool { return c.ID == h.ID }) {
				overlap++
			}
			if candidates[h.ID] {
				continue
			}
			outside = append(outside, h.ID)
			// Lucene keeps the first of equal scores it meets: a window of
			// the best 200 and the peer's unlimited query break ties at the
			// window's edge differently.
			if !full || h.Score > lowest*(1+1e-6) {
				unexplained = append(unexplained, fmt.Sprintf("%s (score %.4g)", h.ID, h.Score))
			}
		}
		detail := fmt.Sprintf("W4 %q: %d hits from casegraph, %d from the peer, %d in both", in.Text, len(cg), len(peer), overlap)
		if len(unexplained) > 0 || len(peer) != len(cg) {
			return verdictMismatch, fmt.Sprintf("%s; peer hits outside Casegraph's %d candidates (lowest score %.4g): %v",
				detail, len(hits), lowest, unexplained)
		}
		if len(outside) > 0 {
			detail += fmt.Sprintf("; %d peer hits tie with Casegraph's last candidate (score %.4g) and fell outside its window of %d", len(outside), lowest, len(hits))
		}
		return verdictExpected, detail + "; every other peer hit is one of Casegraph's candidates (the ranking differs)"
	case "W5":
		cg, peer := cgAnswer.(w5Answer), peerAnswer.(w5Answer)
		if cmp.Equal(cg, peer, equateEmpty) {
			return verdictEqual, ""
		}
		if cg.Found == peer.Found && cg.Length == peer.Length {
			return verdictExpected, fmt.Sprintf("W5 %s -> %s: both length %d, another path of that length (tie): casegraph %v, peer %v",
				in.From, in.To, cg.Length, cg.Nodes, peer.Nodes)
		}
		return verdictMismatch, fmt.Sprintf("W5 %s -> %s: casegraph %+v, peer %+v", in.From, in.To, cg, peer)
	}
	if cmp.Equal(cgAnswer, peerAnswer, equateEmpty) {
		return verdictEqual, ""
	}
	return verdictMismatch, "casegraph vs peer (-casegraph +peer):\n" + cmp.Diff(cgAnswer, peerAnswer, equateEmpty)
}

func describeInput(in input) string {
	switch {
	case in.ID != "":
		return in.ID
	case len(in.IDs) > 0:
		return strings.Join(in.IDs, ",")
	case in.Text != "":
		return fmt.Sprintf("%q", in.Text)
	default:
		return in.From + " -> " + in.To
	}
}
