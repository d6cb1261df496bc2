// Command hello is the smallest main package the image builder's tests build.
package main

import "fmt"

func main() { fmt.Println("hello") }
