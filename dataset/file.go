package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"

	casegraph "github.com/casegraph/casegraph"
)

// ReadFile reads a data file as Read does, but leaves its entities and
// relations in the file: it keeps of each only its id and line (and an
// entity's kind, and their counts by dataset), and Check and Import read
// them again from the file, a chunk at a time, each time they need them
// (a hash of each line, 8 bytes, tells that it is the line read first).
// So a file of millions of rows is checked and imported in the memory of
// its sources and of its entities' and relations' ids (about 60 bytes a
// relation, against some 650 for a relation read whole, and some 1,200
// for an entity). The file must stay as it is until the import ends: a
// change seen when it is read again (its size, a line whose bytes are not
// those read first) stops the import with an error, and
// what was written before stays written, as after any import that fails
// midway.
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
	b := Batch{file: &heldFile{path: path, size: info.Size(), seed: maphash.MakeSeed(), datasets: map[string]Counts{}}}
	err = b.read(bufio.NewReaderSize(f, 1<<20))
	return b, err
}

// heldFile is the rows ReadFile left in their file: the file as it was
// read, and the id of each good entity and relation line, an entity's
// kind, and their counts by dataset (their lines are the batch's
// EntityLines and RelationLines).
type heldFile struct {
	path      string
	size      int64
	entities  []string
	kinds     []casegraph.Kind
	relations []string
	datasets  map[string]Counts
	// A hash of each good entity and relation line, as it was read: a
	// line read again must be the same.
	seed                       maphash.Seed
	entityLines, relationLines []uint64
}

// keepEntity notes an entity read from a good line (raw).
func (f *heldFile) keepEntity(e casegraph.Entity, raw []byte) {
	f.entities, f.kinds = append(f.entities, e.ID), append(f.kinds, e.Kind)
	f.entityLines = append(f.entityLines, maphash.Bytes(f.seed, raw))
	c := f.datasets[e.Dataset]
	c.Entities++
	f.datasets[e.Dataset] = c
}

// keepRelation notes a relation read from a good line (raw).
func (f *heldFile) keepRelation(r casegraph.Relation, raw []byte) {
	f.relations = append(f.relations, r.ID)
	f.relationLines = append(f.relationLines, maphash.Bytes(f.seed, raw))
	c := f.datasets[r.Dataset]
	c.Relations++
	f.datasets[r.Dataset] = c
}

// EntityCount is how many entities the batch holds, read (Entities) or
// left in their file (ReadFile).
func (b Batch) EntityCount() int {
	if b.file != nil {
		return len(b.file.entities)
	}
	return len(b.Entities)
}

// RelationCount is how many relations the batch holds, read (Relations)
// or left in their file (ReadFile).
func (b Batch) RelationCount() int {
	if b.file != nil {
		return len(b.file.relations)
	}
	return len(b.Relations)
}

// entityID is the id of the batch's entity i.
func (b Batch) entityID(i int) string {
	if b.file != nil {
		return b.file.entities[i]
	}
	return b.Entities[i].ID
}

// entityKind is the kind of the batch's entity i.
func (b Batch) entityKind(i int) casegraph.Kind {
	if b.file != nil {
		return b.file.kinds[i]
	}
	return b.Entities[i].Kind
}

// relationID is the id of the batch's relation i.
func (b Batch) relationID(i int) string {
	if b.file != nil {
		return b.file.relations[i]
	}
	return b.Relations[i].ID
}

// entityChunks calls fn with the batch's entities in order, n at a time
// (the last part may hold fewer), with the index of each part's first:
// parts of Entities, or, for a batch that ReadFile left in its file, read
// from it again (each part then fn's to keep). An error of fn stops the
// reading and is returned.
func (b Batch) entityChunks(n int, fn func(start int, rows []casegraph.Entity) error) error {
	if b.file == nil {
		return inParts(b.Entities, n, fn)
	}
	return b.file.chunks(b.EntityLines, b.file.entityLines, n, func(start int, part *Batch) error {
		return fn(start, part.Entities)
	})
}

// relationChunks is entityChunks for the batch's relations.
func (b Batch) relationChunks(n int, fn func(start int, rows []casegraph.Relation) error) error {
	if b.file == nil {
		return inParts(b.Relations, n, fn)
	}
	return b.file.chunks(b.RelationLines, b.file.relationLines, n, func(start int, part *Batch) error {
		return fn(start, part.Relations)
	})
}

// errChanged says that a data file changed while it was imported.
func (f *heldFile) errChanged(what string) error {
	return fmt.Errorf("%s changed since it was read (%s): keep a file as it is until its import ends, then run it again", f.path, what)
}

// chunks reads the file again, n of the good lines given (lines, in
// order, of the hashes noted, all of one type) at a time, for
// entityChunks and relationChunks: fn is given each part decoded in a
// batch of its own. Only those lines are decoded; each must have the
// bytes it had (a line that decoded then decodes now, to the same row).
//
// The lines are read and decoded one part ahead of fn, in a goroutine of
// their own, so that decoding the next part overlaps fn's work on this
// one (the graph check's reads, a batch's write).
func (f *heldFile) chunks(lines []int, hashes []uint64, n int, fn func(start int, part *Batch) error) error {
	type part struct {
		start int
		rows  *Batch
	}
	parts := make(chan part)
	stop := make(chan struct{})
	var readErr error // the reading's, once parts is closed
	go func() {
		defer close(parts)
		readErr = f.read(lines, hashes, n, func(start int, rows *Batch) bool {
			select {
			case parts <- part{start, rows}:
				return true
			case <-stop:
				return false
			}
		})
	}()
	var err error
	for p := range parts {
		if err == nil {
			if err = fn(p.start, p.rows); err != nil {
				close(stop) // read no further
			}
		}
	}
	if err != nil {
		return err
	}
	return readErr
}

// read reads the lines for chunks, and sends each part (until send says
// to stop).
func (f *heldFile) read(lines []int, hashes []uint64, n int, send func(start int, part *Batch) bool) error {
	if len(lines) == 0 {
		return nil
	}
	fh, err := os.Open(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f.errChanged("it is gone")
	}
	if err != nil {
		return err
	}
	defer fh.Close()
	info, err := fh.Stat()
	if err != nil {
		return err
	}
	if info.Size() != f.size {
		return f.errChanged("its size")
	}
	sc := bufio.NewScanner(bufio.NewReaderSize(fh, 1<<20))
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	part := &Batch{} // decodes the part's lines, with their strings interned
	start, k, line := 0, 0, 0
	for k < len(lines) && sc.Scan() {
		line++
		if line != lines[k] {
			continue
		}
		if maphash.Bytes(f.seed, sc.Bytes()) != hashes[k] {
			return f.errChanged(fmt.Sprintf("line %d", line))
		}
		if err := part.add(sc.Bytes(), line); err != nil {
			return err // it decoded when it was read
		}
		k++
		if k-start == n || k == len(lines) {
			if !send(start, part) {
				return nil
			}
			part, start = &Batch{}, k
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
