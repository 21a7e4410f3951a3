// Package hotreload owns the configuration: the settings file a person edits,
// an optional managed-settings file and an optional remote endpoint, merged
// into one effective Config that changes while the process runs.
//
// Precedence for enableExec is remote endpoint, then managed-settings file,
// then settings file, then the default (true). Permission rules and
// disallowedTools are the union of every source, so a managed or remote deny
// cannot be lifted locally.
//
// The config actor owns the sources and publishes a ConfigChanged for every
// change. The settings file is watched the robust way: the watch is on the
// directory (editors replace files by rename), events are matched by name and
// a burst of them is coalesced into one reload; content that did not change
// reloads nothing. A file that does not parse keeps the last good
// configuration and the event carries the error. An endpoint that cannot be
// reached keeps the last value it delivered.
//
// A session without a settings file runs the same config actor
// (StartSession): the defaults, plus the "allow always" answers given
// during the session.
//
// The config actor runs under the same supervision as the other actors
// (internal/supervise): a panic in its Receive answers the asker of that
// message with an error and restarts the actor from its memory, the last
// good configuration it published, the readings it was merged from and its
// subscribers. The change the failed message was making is dropped, never
// half applied; the next reading of its source applies it again
// (TestConfigActorRestartsFromTheLastGoodConfiguration).
//
// "Allow always" answers are written with AddAllowRule: under a process lock
// and an flock on a sibling lock file, the file is re-read, the rule merged in
// with every other key kept, and the result written to a temporary file,
// synced and renamed over the original, so a crash leaves the old or the new
// file, never a torn one.
package hotreload
