package catalog

import "strings"

// synonymGroups are words a model uses interchangeably when it asks for a
// tool it cannot see, while servers each pick one of them: "remove a
// label" must find delete_label, "find mail" must find search_emails. Each
// line is one group; every word stands for the others. Words of one line
// only: a word listed twice would join two meanings.
const synonymGroups = `
delete remove erase drop destroy purge discard
search find query lookup seek locate
get fetch retrieve read obtain show view
list enumerate
create add make new insert
update modify edit change patch
send post deliver
email mail gmail
message msg
run execute exec trigger start launch invoke
stop terminate kill halt abort
repo repository
open navigate visit goto browse
web website site webpage
screenshot capture
diff difference delta compare
comment note
issue ticket bug
event meeting appointment
directory folder dir
image picture photo img
rename move
doc docs documentation
database db
app application
restart reboot
user account member profile
phone mobile device smartphone
chart graph plot diagram
place location
url link uri
spreadsheet excel sheet worksheet
task todo
secret credential password
deploy publish
upload attach
`

// synonymWeight is how much a synonym counts against the word the query
// used: a tool that says remove ranks below one that says delete when the
// query says delete.
const synonymWeight = 0.5

// synonyms maps a term to the other terms of its group.
var synonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(synonymGroups, "\n") {
		var group []string
		for _, w := range strings.Fields(line) {
			group = appendTerms(group, w)
		}
		for _, t := range group {
			for _, other := range group {
				if other != t {
					m[t] = append(m[t], other)
				}
			}
		}
	}
	return m
}()
