package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// ReadFile reads a data file as Read does, but leaves its relations in
// the file: it keeps of each only its id and line (and counts them by
// dataset), and Check and Import read them again from the file, a chunk
// at a time, each time they need them. So a file of millions of relations
// is checked and imported in the memory of its sources and entities, and
// of its relations' ids (about 50 bytes a relation, against some 650 for
// a relation read whole). The file must stay as it is until the import
// ends: a change seen when it is read again (its size, its time of
// modification, a relation line that is not what it was) stops the
// import with an error, and what was written before stays written, as
// after any import that fails midway.
func ReadFile(path string) (Batch, error) {
	f, err := os.Open(path)
	if err != nil {
		return Batch{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Batch{}, err
	}
	if !info.Mode().IsRegular() {
		return Batch{}, fmt.Errorf("%s is not a regular file: read it with Read", path)
	}
	b := Batch{file: &relationFile{path: path, size: info.Size(), modified: info.ModTime(), datasets: map[string]int{}}}
	return b, b.read(bufio.NewReaderSize(f, 1<<20))
}

// relationFile is the relations ReadFile left in their file: the file as
// it was read, and the id and dataset of each good relation line (its line
// is the batch's RelationLines).
type relationFile struct {
	path     string
	size     int64
	modified time.Time
	ids      []string
	datasets map[string]int
}

// keep notes a relation read from a good line.
func (f *relationFile) keep(r casegraph.Relation) {
	f.ids = append(f.ids, r.ID)
	f.datasets[r.Dataset]++
}

// RelationCount is how many relations the batch holds, read (Relations)
// or left in their file (ReadFile).
func (b Batch) RelationCount() int {
	if b.file != nil {
		return len(b.file.ids)
	}
	return len(b.Relations)
}

// relationID is the id of the batch's relation i.
func (b Batch) relationID(i int) string {
	if b.file != nil {
		return b.file.ids[i]
	}
	return b.Relations[i].ID
}

// relationChunks calls fn with the batch's relations in order, n at a
// time (the last part may hold fewer), with the index of each part's
// first: parts of Relations, or, for a batch that ReadFile left in its
// file, read from it again (each part then fn's to keep). An error of fn
// stops the reading and is returned.
func (b Batch) relationChunks(n int, fn func(start int, rows []casegraph.Relation) error) error {
	if b.file == nil {
		return inParts(b.Relations, n, fn)
	}
	return b.file.chunks(b.RelationLines, n, fn)
}

// errChanged says that a data file changed while it was imported.
func (f *relationFile) errChanged(what string) error {
	return fmt.Errorf("%s changed since it was read (%s): keep a file as it is until its import ends, then run it again", f.path, what)
}

// chunks reads the file again, n good relation lines (lines, in order) at
// a time, for relationChunks. Only those lines are decoded.
func (f *relationFile) chunks(lines []int, n int, fn func(start int, rows []casegraph.Relation) error) error {
	if len(lines) == 0 {
		return nil
	}
	fh, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer fh.Close()
	info, err := fh.Stat()
	if err != nil {
		return err
	}
	if info.Size() != f.size || !info.ModTime().Equal(f.modified) {
		return f.errChanged("its size or time of modification")
	}
	sc := bufio.NewScanner(bufio.NewReaderSize(fh, 1<<20))
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	var part Batch // decodes the part's lines, with their strings interned
	start, k, line := 0, 0, 0
	for k < len(lines) && sc.Scan() {
		line++
		if line != lines[k] {
			continue
		}
		if err := part.add(sc.Bytes(), line); err != nil || len(part.Relations) != k-start+1 || part.Relations[k-start].ID != f.ids[k] {
			return f.errChanged(fmt.Sprintf("line %d", line))
		}
		k++
		if k-start == n || k == len(lines) {
			if err := fn(start, part.Relations); err != nil {
				return err
			}
			part, start = Batch{}, k
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
		return err
	}
	if k < len(lines) {
		return f.errChanged(fmt.Sprintf("line %d is missing", lines[k]))
	}
	return nil
}
