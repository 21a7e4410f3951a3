package agent

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// What the flat agent reads out of results, the way a model reads them:
// these parse the filesystem server's text formats.

// listedFiles is the files (not directories) of a list_directory result.
func listedFiles(listing string) []string {
	var files []string
	for _, line := range strings.Split(listing, "\n") {
		if name, ok := strings.CutPrefix(line, "[FILE] "); ok {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	return files
}

// filesRead splits a read_multiple_files result ("path:\ntext\n" parts
// between "\n---\n") into each file's text.
func filesRead(text string) map[string]string {
	files := map[string]string{}
	for _, part := range strings.Split(text, "\n---\n") {
		path, body, ok := strings.Cut(part, ":\n")
		if ok {
			files[path] = strings.TrimSuffix(body, "\n")
		}
	}
	return files
}

// treeFiles is every file's path in a directory_tree result, under root.
func treeFiles(root, tree string) ([]string, error) {
	type node struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Children []node `json:"children"`
	}
	var nodes []node
	if err := json.Unmarshal([]byte(tree), &nodes); err != nil {
		return nil, fmt.Errorf("directory_tree: %w", err)
	}
	var files []string
	var walk func(dir string, nodes []node)
	walk = func(dir string, nodes []node) {
		for _, n := range nodes {
			if n.Type == "directory" {
				walk(dir+"/"+n.Name, n.Children)
			} else {
				files = append(files, dir+"/"+n.Name)
			}
		}
	}
	walk(root, nodes)
	sort.Strings(files)
	return files, nil
}
