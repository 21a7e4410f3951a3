package test262

// The files skipped, and only these: module code, the agent tests that
// block a thread, what the sandbox leaves out on purpose, and what Node 22
// does not ship either. Everything else counts, eval tests included.

// skippedFlags are flags whose files are skipped.
var skippedFlags = map[string]bool{
	"module":          true,
	"CanBlockIsFalse": true,
	"CanBlockIsTrue":  true,
}

// skippedFeatures are features whose files are skipped.
var skippedFeatures = map[string]bool{
	// Left out of the sandbox on purpose: shared memory, weak references
	// and anything that observes the collector, other realms, the
	// HTML document.all quirk, legacy RegExp statics, tail calls.
	"SharedArrayBuffer":      true,
	"Atomics":                true,
	"Atomics.waitAsync":      true,
	"Atomics.pause":          true,
	"WeakRef":                true,
	"FinalizationRegistry":   true,
	"host-gc-required":       true,
	"cross-realm":            true,
	"ShadowRealm":            true,
	"IsHTMLDDA":              true,
	"legacy-regexp":          true,
	"tail-call-optimization": true,

	// Module syntax: a script is never a module.
	"dynamic-import":                       true,
	"import.meta":                          true,
	"import-attributes":                    true,
	"import-assertions":                    true,
	"json-modules":                         true,
	"top-level-await":                      true,
	"source-phase-imports":                 true,
	"source-phase-imports-module-source":   true,
	"import-defer":                         true,
	"export-defer":                         true,
	"import-text":                          true,
	"import-bytes":                         true,
	"arbitrary-module-namespace-names":     true,
	"export-star-as-namespace-from-module": true,

	// Not shipped by Node 22 either.
	"Temporal":                         true,
	"decorators":                       true,
	"explicit-resource-management":     true,
	"Math.sumPrecise":                  true,
	"Error.isError":                    true,
	"RegExp.escape":                    true,
	"uint8array-base64":                true,
	"upsert":                           true,
	"iterator-sequencing":              true,
	"joint-iteration":                  true,
	"iterator-chunking":                true,
	"iterator-includes":                true,
	"Iterator.prototype.join":          true,
	"await-dictionary":                 true,
	"error-stack-accessor":             true,
	"immutable-arraybuffer":            true,
	"nonextensible-applies-to-private": true,
	"Intl.Era-monthcode":               true,
	"Intl.Locale-info":                 true,
	"Intl.DurationFormat":              true,
	"Float16Array":                     true,
	"promise-try":                      true,
	"regexp-modifiers":                 true,
	"regexp-duplicate-named-groups":    true,
}

// skipped reports whether a file with this frontmatter is skipped.
func skipped(m meta) bool {
	for _, f := range m.flags {
		if skippedFlags[f] {
			return true
		}
	}
	for _, f := range m.features {
		if skippedFeatures[f] {
			return true
		}
	}
	return false
}
