const onFirstLine = (() => { try { return null.title; } catch (e) { return e.stack; } })(), made = new Error("made on line 1").stack;
// Where errors arise, as the script reads it from e.stack: the line and
// column in the script as written, on the first line as on later ones, after
// non-ASCII text and tabs too. Run as written (plain JavaScript) and
// transformed (with a type alias appended), it must read the same as in Node.
function at(stack) {
  const m = /script\.ts:(\d+):(\d+)/.exec(stack);
  return m ? `${m[1]}:${m[2]}` : "no position";
}
const record = await tools.mcp__srv__fetch({ id: 2 });
const accents = "Crème brûlée 🍮"; let later; try { later = record.missing.deeper; } catch (e) { later = e.stack; }
const nested = { list: [] }; let indexed; try { indexed = nested.list[0].name; } catch (e) { indexed = e.stack; }
	const tabbed = new Error("tabbed").stack;
function thrower() {
  throw new RangeError("inside a function: " + accents);
}
let fromFunction;
try { thrower(); } catch (e) { fromFunction = e.stack; }
return { onFirstLine: at(onFirstLine), made: at(made), later: at(later), indexed: at(indexed), tabbed: at(tabbed), fromFunction: at(fromFunction) };
