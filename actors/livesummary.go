package actors

import (
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/pool"
)

// liveSummary is the part of a run's live summary beside its calls: while
// some nested calls run as tasks on their servers, each task's latest
// status message. It belongs to the run, not to a caller: the exec actor
// keeps it (the pool's polling goroutines report task statuses to the
// actor, taskStatusChanged), so every caller attached at any time, and
// every watcher, sees the same text.
type liveSummary struct {
	tasks []taskLine // running tasks, oldest first
}

type taskLine struct {
	task, text string
}

// taskStatus records a task's new status and reports whether the summary
// changed: a running task's message shows under the calls; an ended
// task's line goes.
func (s *liveSummary) taskStatus(st pool.TaskStatus) bool {
	ended := st.Status == "completed" || st.Status == "failed" || st.Status == "cancelled"
	key := st.Tool + " " + st.Task
	i := 0
	for ; i < len(s.tasks) && s.tasks[i].task != key; i++ {
	}
	text := st.Tool + ": " + st.Message
	switch {
	case ended && i < len(s.tasks):
		s.tasks = append(s.tasks[:i], s.tasks[i+1:]...)
	case ended, st.Message == "":
		return false
	case i < len(s.tasks):
		if s.tasks[i].text == text {
			return false
		}
		s.tasks[i].text = text
	default:
		s.tasks = append(s.tasks, taskLine{task: key, text: text})
	}
	return true
}

// text is the live summary of a run that made calls: the calls, then a
// line per task still running.
func (s *liveSummary) text(calls []string) string {
	text := exectool.Summary(calls, false)
	for _, t := range s.tasks {
		text += "\n" + exectool.OneLine(t.text)
	}
	return text
}

// idle reports whether the run has nothing to show yet: no call made.
func (s *liveSummary) idle(calls []string) bool {
	return len(calls) == 0 && len(s.tasks) == 0
}
