package shapes

import "strings"

// String renders the shape as a TypeScript type, the way the catalog
// writes types: { a: number; b?: string }, T[], A | B. Fields are in name
// order, so the same shape always reads the same bytes.
func (s *Shape) String() string {
	var b strings.Builder
	s.write(&b)
	return b.String()
}

// write renders the union of the kinds seen, in a fixed order.
func (s *Shape) write(b *strings.Builder) {
	if s == nil || s.Kinds == 0 {
		b.WriteString("unknown")
		return
	}
	n := 0
	sep := func() {
		if n > 0 {
			b.WriteString(" | ")
		}
		n++
	}
	if s.Kinds&kindObject != 0 {
		sep()
		s.writeObject(b)
	}
	if s.Kinds&kindArray != 0 {
		sep()
		s.writeArray(b)
	}
	for _, k := range []struct {
		kind kinds
		name string
	}{{kindString, "string"}, {kindNumber, "number"}, {kindBool, "boolean"}, {kindNull, "null"}} {
		if s.Kinds&k.kind != 0 {
			sep()
			b.WriteString(k.name)
		}
	}
}

func (s *Shape) writeObject(b *strings.Builder) {
	switch {
	case s.Map != nil:
		b.WriteString("{ [key: string]: ")
		s.Map.write(b)
		b.WriteString(" }")
		return
	case len(s.Fields) == 0 && !s.More:
		b.WriteString("{}")
		return
	}
	b.WriteString("{ ")
	for i, f := range s.Fields {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.Name)
		if f.Optional {
			b.WriteByte('?')
		}
		b.WriteString(": ")
		f.Shape.write(b)
	}
	if s.More {
		if len(s.Fields) > 0 {
			b.WriteString("; ")
		}
		b.WriteString("...")
	}
	b.WriteString(" }")
}

func (s *Shape) writeArray(b *strings.Builder) {
	if s.Elem == nil || s.Elem.Kinds == 0 {
		b.WriteString("unknown[]")
		return
	}
	if s.Elem.union() {
		b.WriteByte('(')
		s.Elem.write(b)
		b.WriteString(")[]")
		return
	}
	s.Elem.write(b)
	b.WriteString("[]")
}

// union reports whether the shape renders as more than one type.
func (s *Shape) union() bool {
	k := s.Kinds
	return k&(k-1) != 0
}
