// Counts tokens with gpt-tokenizer's o200k_base encoding (GPT-4o and later).
// Reads a JSON array of strings on stdin, writes a JSON array of counts.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(JSON.stringify(JSON.parse(input).map((text) => countTokens(text))));
