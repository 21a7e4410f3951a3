package goja

// Resizable ArrayBuffers (ES2024): new ArrayBuffer(length, {maxByteLength}),
// resize, resizable, maxByteLength, detached, transfer and
// transferToFixedLength, and the bounds of the views over such a buffer:
// a TypedArray or DataView made without a length follows the buffer's
// length ("length-tracking"); one made with a length goes out of bounds
// while the buffer is too short for it and comes back when it grows.
//
// Memory safety: a buffer's data never shrinks its capacity. Shrinking
// reslices; growing within the capacity reslices and zeroes the new bytes;
// growing past it allocates anew. So an index that was in bounds at any
// moment stays within the capacity of the data a view reads through,
// even if a callback resized the buffer in between.

// maxResizableByteLength bounds maxByteLength: the data is allocated as
// the buffer grows, not up front, but a larger maximum would promise
// memory the process cannot have. Node refuses such a maximum with a
// RangeError as well.
const maxResizableByteLength = 1 << 32

// getMaxByteLengthOption is GetArrayBufferMaxByteLengthOption: -1 when
// options is not an object or its maxByteLength is undefined.
func (r *Runtime) getMaxByteLengthOption(options Value) int {
	o, ok := options.(*Object)
	if !ok {
		return -1
	}
	v := o.self.getStr("maxByteLength", nil)
	if v == nil || v == _undefined {
		return -1
	}
	return r.toIndex(v)
}

// newResizableData allocates a resizable buffer's initial data, after
// checking the lengths as AllocateArrayBuffer does.
func (r *Runtime) checkResizableLengths(byteLength, maxByteLength int) {
	if byteLength > maxByteLength {
		panic(r.newError(r.getRangeError(), "Invalid array buffer max length"))
	}
	if maxByteLength > maxResizableByteLength {
		panic(r.newError(r.getRangeError(), "Array buffer allocation failed"))
	}
}

// resize sets the buffer's length, zeroing the bytes it gains.
func (o *arrayBufferObject) resize(newLen int) {
	old := len(o.data)
	if newLen <= cap(o.data) {
		o.data = o.data[:newLen]
		if newLen > old {
			clear(o.data[old:newLen])
		}
		return
	}
	// Double the capacity (up to the maximum) so that growing step by
	// step copies the data a bounded number of times.
	newCap := max(newLen, min(2*cap(o.data), o.maxByteLength))
	data := make([]byte, newLen, newCap)
	copy(data, o.data)
	o.data = data
}

func (r *Runtime) toArrayBuffer(v Value, method string) *arrayBufferObject {
	if o, ok := v.(*Object); ok {
		if b, ok := o.self.(*arrayBufferObject); ok {
			return b
		}
	}
	panic(r.NewTypeError("Method ArrayBuffer.prototype.%s called on incompatible receiver %s", method, r.objectproto_toString(FunctionCall{This: v})))
}

func (r *Runtime) arrayBufferProto_getResizable(call FunctionCall) Value {
	b := r.toArrayBuffer(call.This, "resizable")
	return r.toBoolean(b.resizable)
}

func (r *Runtime) arrayBufferProto_getMaxByteLength(call FunctionCall) Value {
	b := r.toArrayBuffer(call.This, "maxByteLength")
	if b.detached {
		return intToValue(0)
	}
	if b.resizable {
		return intToValue(int64(b.maxByteLength))
	}
	return intToValue(int64(len(b.data)))
}

func (r *Runtime) arrayBufferProto_getDetached(call FunctionCall) Value {
	b := r.toArrayBuffer(call.This, "detached")
	return r.toBoolean(b.detached)
}

func (r *Runtime) arrayBufferProto_resize(call FunctionCall) Value {
	b := r.toArrayBuffer(call.This, "resize")
	if !b.resizable {
		panic(r.NewTypeError("Method ArrayBuffer.prototype.resize called on incompatible receiver %s", r.objectproto_toString(FunctionCall{This: call.This})))
	}
	newLen := r.toIndex(call.Argument(0))
	b.ensureNotDetached(true)
	if newLen > b.maxByteLength {
		panic(r.newError(r.getRangeError(), "ArrayBuffer.prototype.resize: Invalid length parameter"))
	}
	b.resize(newLen)
	return _undefined
}

func (r *Runtime) arrayBufferProto_transfer(call FunctionCall) Value {
	return r.arrayBufferCopyAndDetach(call, "transfer", true)
}

func (r *Runtime) arrayBufferProto_transferToFixedLength(call FunctionCall) Value {
	return r.arrayBufferCopyAndDetach(call, "transferToFixedLength", false)
}

// arrayBufferCopyAndDetach is ArrayBufferCopyAndDetach: a new buffer with
// the old one's bytes (cut or zero-extended to newLength), the old one
// detached.
func (r *Runtime) arrayBufferCopyAndDetach(call FunctionCall, method string, preserveResizability bool) Value {
	b := r.toArrayBuffer(call.This, method)
	var newLen int
	if arg := call.Argument(0); arg == _undefined {
		newLen = len(b.data)
	} else {
		newLen = r.toIndex(arg)
	}
	b.ensureNotDetached(true)
	nb := r._newArrayBuffer(r.getArrayBufferPrototype(), nil)
	if preserveResizability && b.resizable {
		if newLen > b.maxByteLength {
			panic(r.newError(r.getRangeError(), "Invalid array buffer length"))
		}
		nb.resizable = true
		nb.maxByteLength = b.maxByteLength
	}
	if newLen == len(b.data) && (!nb.resizable || cap(b.data) <= nb.maxByteLength) {
		// The bytes move: nothing else can reach them once b is detached.
		nb.data = b.data
	} else {
		nb.data = allocByteSlice(newLen)
		copy(nb.data, b.data)
	}
	b.detach()
	return nb.val
}

// lengthNow is the view's length in elements at this moment (0 when out
// of bounds or detached): TypedArrayLength of a fresh witness record.
func (a *typedArrayObject) lengthNow() int {
	buf := a.viewedArrayBuf
	if buf.detached {
		return 0
	}
	if !buf.resizable {
		return a.fixedLength
	}
	start := a.offset * a.elemSize
	byteLen := len(buf.data)
	if start > byteLen {
		return 0
	}
	if a.lengthTracking {
		return (byteLen - start) / a.elemSize
	}
	if start+a.fixedLength*a.elemSize > byteLen {
		return 0
	}
	return a.fixedLength
}

// outOfBounds is IsTypedArrayOutOfBounds (true for a detached buffer too).
func (a *typedArrayObject) outOfBounds() bool {
	buf := a.viewedArrayBuf
	if buf.detached {
		return true
	}
	if !buf.resizable {
		return false
	}
	start := a.offset * a.elemSize
	if start > len(buf.data) {
		return true
	}
	return !a.lengthTracking && start+a.fixedLength*a.elemSize > len(buf.data)
}

// validate is ValidateTypedArray: a TypeError when the view is out of
// bounds or its buffer detached; otherwise it records and returns the
// current length (the len a built-in method works to).
func (a *typedArrayObject) validate() int {
	if a.outOfBounds() {
		if a.viewedArrayBuf.detached {
			panic(a.val.runtime.NewTypeError("ArrayBuffer is detached"))
		}
		panic(a.val.runtime.NewTypeError("TypedArray is out of bounds"))
	}
	a.length = a.lengthNow()
	return a.length
}

// setFixedLength sets the length of a view made over a fixed extent.
func (a *typedArrayObject) setFixedLength(n int) {
	a.length = n
	a.fixedLength = n
}

// byteLengthNow is GetViewByteLength, or -1 when the view is out of
// bounds (IsViewOutOfBounds, a detached buffer included).
func (o *dataViewObject) byteLengthNow() int {
	buf := o.viewedArrayBuf
	if buf.detached {
		return -1
	}
	byteLen := len(buf.data)
	if o.byteOffset > byteLen {
		return -1
	}
	if o.lengthTracking {
		return byteLen - o.byteOffset
	}
	if o.byteOffset+o.byteLen > byteLen {
		return -1
	}
	return o.byteLen
}

// validViewByteLength is the view's byte length, or a TypeError when it
// is out of bounds.
func (o *dataViewObject) validViewByteLength() int {
	n := o.byteLengthNow()
	if n < 0 {
		o.viewedArrayBuf.ensureNotDetached(true)
		panic(o.val.runtime.NewTypeError("DataView is out of bounds"))
	}
	return n
}
