package agent

// Tasks is the benchmark, in the order of its table: the filesystem, the
// memory graph, then the HTTP server with the others, each kind ending on
// its one-call question where code mode is expected to lose.
func Tasks() []Task {
	return []Task{
		notesIndexTask, todoReportTask, archiveLogsTask, configPortTask,
		teamGraphTask, pruneGraphTask, recallFactTask,
		sumInvoicesTask, weatherNotesTask, envAuditTask, quickSumTask,
	}
}
