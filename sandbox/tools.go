package sandbox

import (
	"encoding/json"
	"strings"

	"github.com/dop251/goja"
	"github.com/mcpexec/mcpexec/catalog"
)

// toolsObject is the script's tools global. It is a dynamic object so that
// setting up a run costs nothing per tool: a wrapper function is made the
// first time the script reads a name, then reused (tools.x === tools.x).
//
// Only names with the mcp__ prefix are intercepted when unknown (EDGE-1):
// every other read, notably then, behaves as on an ordinary object, so tools
// is never mistaken for a thenable. The one other name with a meaning is
// search, which answers with guidance towards the reserved namespace
// (SEARCH-6).
type toolsObject struct {
	x         *execution
	wrappers  map[string]goja.Value
	namespace goja.Value
}

const mcpPrefix = "mcp__"

func (t *toolsObject) Get(key string) goja.Value {
	if w, ok := t.wrappers[key]; ok {
		return w
	}
	var w goja.Value
	switch {
	case t.x.req.Tools.Has(key):
		name := key
		w = t.x.realm.newFunction(name, func(call goja.FunctionCall) goja.Value {
			return t.x.callTool(name, call.Argument(0))
		})
	case strings.HasPrefix(key, mcpPrefix):
		message := t.x.req.Tools.refusal(key)
		w = t.x.realm.newFunction(key, func(goja.FunctionCall) goja.Value {
			return t.x.realm.rejected(message)
		})
	case key == catalog.SearchNamespace:
		return t.searchNamespace()
	case key == catalog.SearchMethod:
		w = t.x.realm.newFunction(key, func(goja.FunctionCall) goja.Value {
			return t.x.realm.rejected(msgSearchNotTopLevel())
		})
	default:
		return nil
	}
	t.wrappers[key] = w
	return w
}

func (t *toolsObject) searchNamespace() goja.Value {
	if t.namespace == nil {
		ns := t.x.realm.vm.NewObject()
		_ = ns.DefineDataProperty(catalog.SearchMethod, t.x.realm.newFunction(catalog.SearchMethod, func(call goja.FunctionCall) goja.Value {
			return t.x.search(call.Argument(0))
		}), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		t.namespace = ns
	}
	return t.namespace
}

// Set and Delete refuse: the script cannot replace or remove a tool.
func (t *toolsObject) Set(string, goja.Value) bool { return false }
func (t *toolsObject) Delete(string) bool          { return false }

func (t *toolsObject) Has(key string) bool {
	return t.x.req.Tools.Has(key) || key == catalog.SearchNamespace
}

// Keys lists the reachable tools, so Object.keys(tools) enumerates the pool.
func (t *toolsObject) Keys() []string { return t.x.req.Tools.Names() }

func (x *execution) installTools() {
	t := &toolsObject{x: x, wrappers: make(map[string]goja.Value)}
	_ = x.realm.vm.Set("tools", x.realm.vm.NewDynamicObject(t))
}

// callArguments turns a call's argument into the JSON the host receives:
// undefined means no arguments ({}), anything but a plain object is
// rejected (EDGE-24, ISO-6).
func (x *execution) callArguments(v goja.Value) (json.RawMessage, error) {
	if v == nil || goja.IsUndefined(v) {
		return json.RawMessage("{}"), nil
	}
	obj, isObject := v.(*goja.Object)
	if !isObject || obj.ClassName() != "Object" {
		return nil, plainObjectError(nil)
	}
	o := x.newOutbound(argumentsMode, x.limits.MaxArgBytes)
	o.limit = x.limits.MaxArgBytes
	if _, err := o.value(v, 0); err != nil {
		if isStop(err) {
			return nil, err
		}
		return nil, plainObjectError(err)
	}
	return json.RawMessage(o.buf), nil
}

func plainObjectError(cause error) error {
	if cause == nil {
		return plainError(msgNotPlainObject + ".")
	}
	if cause == errTooLarge {
		return plainError(msgNotPlainObject + " of a reasonable size: these arguments are too large.")
	}
	return plainError(msgNotPlainObject + ": " + cause.Error() + ".")
}

// plainError is an error whose message is shown to the script as is.
type plainError string

func (e plainError) Error() string { return string(e) }
