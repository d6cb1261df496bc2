// Command hello is the smallest main package the image builder's tests build. It imports net,
// which links the C resolver whenever cgo is on, so a builder that forgot CGO_ENABLED=0 would
// make a dynamically linked binary that an image without libc cannot run.
package main

import (
	"fmt"
	"net"
)

func main() { fmt.Println("hello", net.ParseIP("127.0.0.1")) }
