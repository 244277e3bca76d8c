package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// SQLite's dbstat table (bytes per table) is not compiled into
// mattn/go-sqlite3's default build, so this file counts the same thing from the
// database file itself (https://www.sqlite.org/fileformat2.html): the pages of
// one table's B-tree, interior and leaf, and the overflow pages of its cells.

// dbFile is an SQLite database file (checkpointed: nothing left in its WAL).
type dbFile struct {
	f        *os.File
	pageSize int // bytes per page
	usable   int // page size less the reserved bytes at each page's end
	pages    int // pages in the file
	freelist int // pages on the freelist
}

func openDBFile(path string) (*dbFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	hdr := make([]byte, 100)
	if _, err := io.ReadFull(f, hdr); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	if string(hdr[:16]) != "SQLite format 3\x00" {
		f.Close()
		return nil, fmt.Errorf("%s is not an SQLite database", path)
	}
	d := &dbFile{f: f, pageSize: int(binary.BigEndian.Uint16(hdr[16:]))}
	if d.pageSize == 1 {
		d.pageSize = 65536
	}
	d.usable = d.pageSize - int(hdr[20])
	d.pages = int(binary.BigEndian.Uint32(hdr[28:]))
	d.freelist = int(binary.BigEndian.Uint32(hdr[36:]))
	return d, nil
}

func (d *dbFile) close() error { return d.f.Close() }

func (d *dbFile) page(n uint32) ([]byte, error) {
	if n < 1 || int(n) > d.pages {
		return nil, fmt.Errorf("page %d is outside the file's %d pages", n, d.pages)
	}
	b := make([]byte, d.pageSize)
	_, err := d.f.ReadAt(b, int64(n-1)*int64(d.pageSize))
	return b, err
}

// treeSize is what one B-tree holds: its pages (overflow pages included) and
// the payload bytes of its cells.
type treeSize struct {
	pages, overflow int
	payload         int64
}

func (t treeSize) bytes(pageSize int) int64 { return int64(t.pages+t.overflow) * int64(pageSize) }

// tree walks the B-tree whose root is page root.
func (d *dbFile) tree(root uint32) (treeSize, error) {
	var t treeSize
	err := d.walk(root, &t, 0)
	return t, err
}

func (d *dbFile) walk(n uint32, t *treeSize, depth int) error {
	if depth > 40 {
		return errors.New("b-tree deeper than 40 levels: the file is not read right")
	}
	p, err := d.page(n)
	if err != nil {
		return err
	}
	t.pages++
	h := 0
	if n == 1 {
		h = 100 // page 1 starts with the file header
	}
	typ := p[h]
	interior := typ == 0x02 || typ == 0x05
	if typ != 0x02 && typ != 0x05 && typ != 0x0a && typ != 0x0d {
		return fmt.Errorf("page %d: not a b-tree page (type %#x)", n, typ)
	}
	cells := int(binary.BigEndian.Uint16(p[h+3:]))
	ptrs := h + 8
	if interior {
		ptrs = h + 12
	}
	for i := range cells {
		off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
		if interior {
			if err := d.walk(binary.BigEndian.Uint32(p[off:]), t, depth+1); err != nil {
				return err
			}
			off += 4
		}
		if typ == 0x05 {
			continue // a table's interior cell is a child and a rowid: no payload
		}
		if err := d.cell(p, off, typ, t); err != nil {
			return fmt.Errorf("page %d cell %d: %w", n, i, err)
		}
	}
	if interior {
		return d.walk(binary.BigEndian.Uint32(p[h+8:]), t, depth+1)
	}
	return nil
}

// cell counts the payload of the cell at off and the overflow pages it spills to.
func (d *dbFile) cell(p []byte, off int, typ byte, t *treeSize) error {
	size, k := sqliteVarint(p[off:])
	if k == 0 {
		return errors.New("bad payload size")
	}
	off += k
	if typ == 0x0d { // a table leaf's rowid
		_, k = sqliteVarint(p[off:])
		off += k
	}
	t.payload += int64(size)
	local := localPayload(int(size), d.usable, typ == 0x0d)
	if local == int(size) {
		return nil
	}
	next := binary.BigEndian.Uint32(p[off+local:])
	for ; next != 0; t.overflow++ {
		if t.overflow > d.pages {
			return errors.New("overflow chain longer than the file")
		}
		o, err := d.page(next)
		if err != nil {
			return err
		}
		next = binary.BigEndian.Uint32(o)
	}
	return nil
}

// localPayload is how many of a cell's size payload bytes its page holds,
// the rest going to overflow pages (the file format's X, M and K).
func localPayload(size, usable int, tableLeaf bool) int {
	maxLocal := (usable-12)*64/255 - 23
	if tableLeaf {
		maxLocal = usable - 35
	}
	if size <= maxLocal {
		return size
	}
	minLocal := (usable-12)*32/255 - 23
	k := minLocal + (size-minLocal)%(usable-4)
	if k <= maxLocal {
		return k
	}
	return minLocal
}

// sqliteVarint decodes the SQLite varint at the start of b and returns its
// length (0 if b is too short): big-endian groups of 7 bits, the high bit of
// each byte saying "more", and a ninth byte of 8 bits (not encoding/binary's
// little-endian Uvarint).
func sqliteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 8 && i < len(b); i++ {
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}
