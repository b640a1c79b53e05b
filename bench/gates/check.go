package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Verdicts of an answer check.
const (
	verdictSame     = "same"      // byte for byte
	verdictEqual    = "equal"     // the same JSON, other bytes (key order, number spelling)
	verdictClose    = "close"     // equal but for numbers within 1e-4 (full-text scores: other datasets' writes move Lucene's statistics)
	verdictTie      = "tie"       // W5: another path of the same length
	verdictMismatch = "MISMATCH"  // anything else
	verdictError    = "ERROR"     // either server failed
	verdictBothErr  = "both fail" // both failed the same way
)

// checkResult is a workload's answers for one caller, base against new.
type checkResult struct {
	w        workload
	caller   int
	verdicts map[string]int
	details  []string // the first few mismatches and errors
}

// check asks both servers the first inputs of a workload as one caller
// and compares the answers.
func (h *harness) check(ctx context.Context, p *prepared, caller int) checkResult {
	res := checkResult{w: p.w, caller: caller, verdicts: map[string]int{}}
	n := min(h.cfg.Checks, len(p.bodies))
	for i := range n {
		base, errBase := h.clients[serverBase][caller].post(ctx, p.bodies[i])
		nw, errNew := h.clients[serverNew][caller].post(ctx, p.bodies[i])
		v, detail := compareAnswers(p.w.Key, base, nw, errBase, errNew)
		res.verdicts[v]++
		if detail != "" && v != verdictClose && len(res.details) < 5 {
			res.details = append(res.details, fmt.Sprintf("%s input %d (%s): %s", p.w.Key, i, p.inputs[i], detail))
		}
	}
	h.logf("%s %s: answers base vs new: %s", p.w.Key, callerNames[caller], tally(res.verdicts))
	for _, d := range res.details {
		h.logf("  %s", d)
	}
	return res
}

func compareAnswers(key string, base, nw []byte, errBase, errNew error) (string, string) {
	switch {
	case errBase != nil && errNew != nil:
		a, b := errorCodes(base), errorCodes(nw)
		if a == b {
			return verdictBothErr, fmt.Sprintf("both: %s", a)
		}
		return verdictError, fmt.Sprintf("base: %v; new: %v", errBase, errNew)
	case errBase != nil || errNew != nil:
		return verdictError, fmt.Sprintf("base: %v; new: %v", errBase, errNew)
	}
	if bytes.Equal(base, nw) {
		return verdictSame, ""
	}
	var a, b any
	if err := json.Unmarshal(base, &a); err != nil {
		return verdictError, "base: " + err.Error()
	}
	if err := json.Unmarshal(nw, &b); err != nil {
		return verdictError, "new: " + err.Error()
	}
	if reflect.DeepEqual(a, b) {
		return verdictEqual, ""
	}
	if nearlyEqual(a, b) {
		return verdictClose, firstDiff("", a, b)
	}
	if key == "W5" {
		la, lb := pathLength(a), pathLength(b)
		if la >= 0 && la == lb {
			return verdictTie, ""
		}
	}
	return verdictMismatch, firstDiff("", a, b)
}

// nearlyEqual says whether two JSON values are equal but for numbers that
// differ by at most 1e-4 of their size.
func nearlyEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !nearlyEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !nearlyEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && math.Abs(x-y) <= 1e-4*math.Max(math.Abs(x), math.Abs(y))
	}
	return reflect.DeepEqual(a, b)
}

// errorCodes are the extensions.code of a response's errors, sorted.
func errorCodes(body []byte) string {
	var r struct {
		Errors []struct {
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &r) != nil {
		return clip(body)
	}
	var codes []string
	for _, e := range r.Errors {
		codes = append(codes, e.Extensions.Code)
	}
	slices.Sort(codes)
	return strings.Join(codes, ",")
}

func pathLength(v any) int {
	m, _ := v.(map[string]any)
	d, _ := m["data"].(map[string]any)
	if d == nil {
		return -1
	}
	p, ok := d["shortestPath"].(map[string]any)
	if !ok {
		return 0 // null: no path
	}
	l, _ := p["length"].(float64)
	return int(l)
}

// firstDiff names the first place two JSON values differ.
func firstDiff(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: base %s, new %s", path, short(a), short(b))
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if !reflect.DeepEqual(x[k], y[k]) {
				return firstDiff(path+"."+k, x[k], y[k])
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok {
			return fmt.Sprintf("%s: base %s, new %s", path, short(a), short(b))
		}
		for i := range min(len(x), len(y)) {
			if !reflect.DeepEqual(x[i], y[i]) {
				return firstDiff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i])
			}
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: base %d items, new %d", path, len(x), len(y))
		}
	}
	return fmt.Sprintf("%s: base %s, new %s", path, short(a), short(b))
}

func short(v any) string {
	b, _ := json.Marshal(v)
	return clip(b)
}

// tally counts verdicts: "18 same, 2 tie".
func tally(verdicts map[string]int) string {
	var parts []string
	for _, v := range []string{verdictSame, verdictEqual, verdictClose, verdictTie, verdictBothErr, verdictMismatch, verdictError} {
		if n := verdicts[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	return strings.Join(parts, ", ")
}
