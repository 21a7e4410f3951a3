package actors

import (
	"context"
	"sync"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/pool"
)

// liveSummary is what a caller watching a run sees as it goes: the nested
// calls made so far and, while some of them run as tasks on their servers,
// each task's latest status message. Calls are reported by the exec actor,
// task statuses by the pool's polling goroutines.
type liveSummary struct {
	onProgress func(string)

	mu    sync.Mutex
	calls []string
	tasks []taskLine // running tasks, oldest first
}

type taskLine struct {
	task, text string
}

// watchedSummary returns the live summary that reports to onProgress, and
// ctx under which the run's nested calls report their tasks' statuses to
// it; nil and ctx unchanged when nobody watches.
func watchedSummary(ctx context.Context, onProgress func(string)) (*liveSummary, context.Context) {
	if onProgress == nil {
		return nil, ctx
	}
	s := &liveSummary{onProgress: onProgress}
	return s, pool.WithTaskStatus(ctx, s.taskStatus)
}

// progress is the exec actor's report of the calls made so far.
func (s *liveSummary) progress(calls []string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = calls
	s.onProgress(s.text())
}

// progressFunc is progress as an ExecRequest's or a Watch's callback.
func (s *liveSummary) progressFunc() func([]string) {
	if s == nil {
		return nil
	}
	return s.progress
}

// taskStatus records a task's new status: a running task's message shows
// under the calls; an ended task's line goes.
func (s *liveSummary) taskStatus(st pool.TaskStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ended := st.Status == "completed" || st.Status == "failed" || st.Status == "cancelled"
	i := 0
	for ; i < len(s.tasks) && s.tasks[i].task != st.Tool+" "+st.Task; i++ {
	}
	switch {
	case ended && i < len(s.tasks):
		s.tasks = append(s.tasks[:i], s.tasks[i+1:]...)
	case ended:
		return
	case st.Message == "":
		return
	case i < len(s.tasks):
		s.tasks[i].text = st.Tool + ": " + st.Message
	default:
		s.tasks = append(s.tasks, taskLine{task: st.Tool + " " + st.Task, text: st.Tool + ": " + st.Message})
	}
	s.onProgress(s.text())
}

func (s *liveSummary) text() string {
	text := exectool.Summary(s.calls, false)
	for _, t := range s.tasks {
		text += "\n" + exectool.OneLine(t.text)
	}
	return text
}
