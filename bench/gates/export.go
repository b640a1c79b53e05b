package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"os"
	"time"
)

// exportResult is the export of a dataset for one caller.
type exportResult struct {
	dataset string
	caller  int
	times   [nServers][]time.Duration
	errors  [nServers]int
	first   [nServers]string
	bytes   [nServers]int64
	lines   [nServers]int
	sha     [nServers]string
	// The check: whether the bodies are the same, else how many lines each
	// has that the other has not, with a few of them.
	compared, same bool
	// Runs broken off after their first bytes: the bytes read, and when
	// the body ended.
	cutBytes            [nServers][]int64
	cutTimes            [nServers][]time.Duration
	onlyBase, onlyNew   int
	sampleBase, sampleN []string
}

// export runs GET /datasets/{name}/export as one caller, -export-runs
// times on each server, base and new taking turns (the first of a pair
// alternating), each timed to the last byte of its body. The first run's
// bodies are also kept in temporary files and compared, line by line when
// they differ. A failed export is counted, not fatal.
func (h *harness) export(ctx context.Context, dataset string, caller int) (exportResult, error) {
	res := exportResult{dataset: dataset, caller: caller}
	var files [nServers]string
	defer func() {
		for _, f := range files {
			if f != "" {
				os.Remove(f)
			}
		}
	}()
	for run := range h.cfg.ExportRuns {
		if run >= 2 && res.errors[serverBase] == run && res.errors[serverNew] == run {
			// Every run of both was cut (the database's transaction
			// timeout): two of each say what there is to say.
			h.logf("EXPORT %s of %s: every run of both servers failed; no more runs", callerNames[caller], dataset)
			break
		}
		for j := range nServers {
			s := (run + j) % nServers
			name := fmt.Sprintf("%s of %s", h.exportClient(s, caller, dataset).name, dataset)
			var w io.Writer = io.Discard
			var f *os.File
			if run == 0 {
				var err error
				if f, err = os.CreateTemp("", "gates-export-*.ndjson"); err != nil {
					return res, err
				}
				files[s] = f.Name()
				w = f
			}
			took, n, lines, sum, err := h.exportOnce(ctx, s, caller, dataset, w)
			if f != nil {
				f.Close()
			}
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			if err == nil && res.sha[s] != "" && sum != res.sha[s] {
				err = fmt.Errorf("a body other than the first's (sha256 %s, was %s)", sum, res.sha[s])
			}
			if err != nil {
				res.errors[s]++
				if res.first[s] == "" {
					res.first[s] = err.Error()
				}
				if n > 0 {
					// Cut short: what arrived, and how fast.
					res.cutBytes[s] = append(res.cutBytes[s], n)
					res.cutTimes[s] = append(res.cutTimes[s], took)
				}
				h.logf("EXPORT %s run %d: after %s and %d bytes: %v", name, run, took.Round(time.Millisecond), n, err)
				if run == 0 {
					os.Remove(files[s])
					files[s] = ""
				}
				continue
			}
			res.bytes[s], res.lines[s], res.sha[s] = n, lines, sum
			res.times[s] = append(res.times[s], took)
			h.logf("EXPORT %s run %d: %d bytes, %d lines in %s", name, run, n, lines, took.Round(time.Millisecond))
		}
	}
	if files[serverBase] == "" || files[serverNew] == "" {
		return res, nil // nothing to compare
	}
	res.compared = true
	res.same = res.sha[serverBase] == res.sha[serverNew]
	if !res.same {
		var err error
		if res.onlyBase, res.onlyNew, res.sampleBase, res.sampleN, err = diffLines(files[serverBase], files[serverNew]); err != nil {
			return res, err
		}
		h.logf("EXPORT %s of %s: the bodies differ: %d lines only in base, %d only in new; base %q, new %q",
			callerNames[caller], dataset, res.onlyBase, res.onlyNew, res.sampleBase, res.sampleN)
	}
	return res, nil
}

// exportClient is the client that exports a dataset: the reader of
// another dataset than -dataset has a key of its own, a reader of just
// that dataset (GATES_BASE_EXPORT_READER_KEYS, GATES_NEW_EXPORT_READER_KEYS:
// dataset=token, space-separated).
func (h *harness) exportClient(s, caller int, dataset string) *client {
	cl := h.clients[s][caller]
	if caller != callerReader || dataset == h.cfg.Dataset {
		return cl
	}
	if token, ok := h.cfg.ExportReaderKeys[s][dataset]; ok {
		return newClient(cl.name, cl.base, token, cl.timeout)
	}
	return cl
}

// exportOnce reads one export to its end into w and returns the time to
// the last byte, its size, lines and SHA-256.
func (h *harness) exportOnce(ctx context.Context, s, caller int, dataset string, w io.Writer) (time.Duration, int64, int, string, error) {
	cl := h.exportClient(s, caller, dataset)
	ctx, cancel := context.WithTimeout(ctx, h.cfg.ExportTimeout)
	defer cancel()
	url := fmt.Sprintf("%s/datasets/%s/export?format=%s", cl.base, dataset, h.cfg.ExportFormat)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, 0, 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+cl.token)
	t0 := time.Now()
	res, err := cl.http.Do(req)
	if err != nil {
		return time.Since(t0), 0, 0, "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		return time.Since(t0), 0, 0, "", fmt.Errorf("HTTP %d: %s", res.StatusCode, clip(b))
	}
	sum := sha256.New()
	lc := &lineCounter{}
	n, err := io.Copy(io.MultiWriter(w, sum, lc), res.Body)
	took := time.Since(t0)
	if err != nil {
		return took, n, lc.n, "", err
	}
	return took, n, lc.n, hex.EncodeToString(sum.Sum(nil)), nil
}

type lineCounter struct{ n int }

func (c *lineCounter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			c.n++
		}
	}
	return len(p), nil
}

// diffLines compares two files as sets of lines: how many of each's lines
// the other has not, and up to 3 of them each.
func diffLines(a, b string) (onlyA, onlyB int, sampleA, sampleB []string, err error) {
	hashes := func(path string) (map[uint64]int, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		out := map[uint64]int{}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			out[hashLine(sc.Bytes())]++
		}
		return out, sc.Err()
	}
	only := func(path string, other map[uint64]int) (int, []string, error) {
		f, err := os.Open(path)
		if err != nil {
			return 0, nil, err
		}
		defer f.Close()
		n := 0
		var sample []string
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			k := hashLine(sc.Bytes())
			if other[k] > 0 {
				other[k]--
				continue
			}
			n++
			if len(sample) < 3 {
				sample = append(sample, clip(sc.Bytes()))
			}
		}
		return n, sample, sc.Err()
	}
	ha, err := hashes(a)
	if err != nil {
		return
	}
	hb, err := hashes(b)
	if err != nil {
		return
	}
	if onlyA, sampleA, err = only(a, hb); err != nil {
		return
	}
	onlyB, sampleB, err = only(b, ha)
	return
}

func hashLine(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}
