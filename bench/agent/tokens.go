package agent

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os/exec"
)

// Tokenizer names the encoding the counts are in, for the report.
const Tokenizer = "gpt-tokenizer 4.0.0, o200k_base"

//go:embed tokenize.mjs
var tokenizeScript string

// countTokens counts each text's tokens in one node process. The script is
// evaluated in the directory holding the npm package, so its bare import
// resolves there.
func countTokens(setup Setup, texts []string) ([]int, error) {
	node, err := setup.node()
	if err != nil {
		return nil, err
	}
	in, err := json.Marshal(texts)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, "--input-type=module", "--eval", tokenizeScript)
	cmd.Dir = setup.tokenizerModules()
	cmd.Stdin = bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("tokenizer: %w: %s", err, stderr.String())
	}
	var counts []int
	if err := json.Unmarshal(out.Bytes(), &counts); err != nil || len(counts) != len(texts) {
		return nil, fmt.Errorf("tokenizer gave %q for %d texts", out.String(), len(texts))
	}
	return counts, nil
}
