// Package replicapb holds the protobuf messages the replicas of one gateway
// exchange through protoactor's remote. Regenerate with go generate (protoc
// and protoc-gen-go on PATH).
package replicapb

//go:generate protoc --go_out=. --go_opt=paths=source_relative replicapb.proto
