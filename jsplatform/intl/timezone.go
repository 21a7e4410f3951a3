package intl

import (
	_ "time/tzdata" // the zones are the binary's own, not the machine's
)

// timeZoneNames are the IANA zones Intl.supportedValuesOf lists.
func timeZoneNames() []string { return []string{"UTC"} }
