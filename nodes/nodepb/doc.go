// Package nodepb holds the protobuf messages a daemon and its sandbox nodes
// exchange through protoactor's remote. Regenerate with go generate (protoc
// and protoc-gen-go v1.33.0 on PATH).
package nodepb

//go:generate protoc --go_out=. --go_opt=paths=source_relative nodepb.proto
