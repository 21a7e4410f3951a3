package cli

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"time"
)

// durationFlag declares a duration flag whose bad value says what a good
// one looks like (the flag package's own says only "parse error").
func durationFlag(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var((*durationValue)(p), name, usage)
}

type durationValue time.Duration

func (d *durationValue) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err == nil {
		*d = durationValue(v)
		return nil
	}
	if _, numErr := strconv.ParseFloat(s, 64); numErr == nil {
		return fmt.Errorf("a duration needs a unit: use a unit, e.g. %ss", s)
	}
	return errors.New("not a duration: use a number and a unit, e.g. 5s or 1m30s")
}

func (d *durationValue) String() string { return time.Duration(*d).String() }
