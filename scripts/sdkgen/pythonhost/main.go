// Command pythonhost is the Python language host the project runs: the host of sdk v3.68.0 (the
// newest the module proxy reachable here serves), with the one method it lacks that the engine
// needs, GenerateProgram, which writes the Python code of `pulumi import --out` and `pulumi
// convert`. Every other call is relayed unchanged to that host, started beside this one.
//
// It is started as any language host is (flags, then the engine's address) and prints the port it
// serves on; the host it relays to is `pulumi-language-python-base` in its own directory, next to
// the `pulumi-language-python-exec` script that host runs programs with.
package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

const baseHost = "pulumi-language-python-base"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pulumi-language-python:", err)
		os.Exit(1)
	}
}

func run() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	self, err = filepath.EvalSymlinks(self)
	if err != nil {
		return err
	}
	base := exec.Command(filepath.Join(filepath.Dir(self), baseHost), os.Args[1:]...)
	base.Stderr = os.Stderr
	out, err := base.StdoutPipe()
	if err != nil {
		return err
	}
	if err := base.Start(); err != nil {
		return err
	}
	defer base.Process.Kill() //nolint:errcheck // gone already when it exited first
	lines := bufio.NewReader(out)
	port, err := lines.ReadString('\n')
	if err != nil {
		return fmt.Errorf("the base host printed no port: %w", err)
	}
	go io.Copy(os.Stdout, lines) //nolint:errcheck // what the base host prints later is passed on as is

	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	server := grpc.NewServer(
		grpc.ForceServerCodec(frameCodec{}),
		grpc.UnknownServiceHandler(relay(conn)),
		grpc.MaxRecvMsgSize(1<<30), grpc.MaxSendMsgSize(1<<30),
	)
	server.RegisterService(&generateProgramService, nil)
	fmt.Println(listener.Addr().(*net.TCPAddr).Port)
	go server.Serve(listener) //nolint:errcheck // ends when the process does

	// The engine stops a language host by ending it; this one lives as long as the base host does.
	return base.Wait()
}

// generateProgramService declares only GenerateProgram of the LanguageRuntime service: the calls of
// its other methods reach the relay, as calls of unregistered methods do.
var generateProgramService = grpc.ServiceDesc{
	ServiceName: "pulumirpc.LanguageRuntime",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "GenerateProgram",
		Handler: func(_ any, ctx context.Context, decode func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			req := new(pulumirpc.GenerateProgramRequest)
			if err := decode(req); err != nil {
				return nil, err
			}
			return generateProgram(req)
		},
	}},
	Metadata: "pulumi/language.proto",
}

// generateProgram binds the PCL program the engine sends, loading package schemas through the
// engine's loader, and writes it as Python, as newer Python hosts do.
func generateProgram(req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	parser := syntax.NewParser()
	for name, text := range req.Source {
		if err := parser.ParseFile(bytes.NewReader([]byte(text)), name); err != nil {
			return nil, err
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics)}, nil
	}
	var options []pcl.BindOption
	if !req.Strict {
		options = pcl.NonStrictBindOptions()
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	files, genDiags, err := python.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(append(diags, genDiags...))}, nil
}

// relay forwards a call, unary or streaming, frame by frame to the base host and its answers back.
func relay(conn *grpc.ClientConn) grpc.StreamHandler {
	return func(_ any, in grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(in)
		md, _ := metadata.FromIncomingContext(in.Context())
		ctx, cancel := context.WithCancel(metadata.NewOutgoingContext(in.Context(), md.Copy()))
		defer cancel()
		out, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method, grpc.ForceCodec(frameCodec{}))
		if err != nil {
			return err
		}
		go func() {
			for {
				f := new(frame)
				if err := in.RecvMsg(f); err != nil {
					out.CloseSend() //nolint:errcheck // the answer stream reports what went wrong
					return
				}
				if err := out.SendMsg(f); err != nil {
					return
				}
			}
		}()
		for {
			f := new(frame)
			if err := out.RecvMsg(f); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			if err := in.SendMsg(f); err != nil {
				return err
			}
		}
	}
}

// frame is one message of a relayed call, its bytes untouched.
type frame struct{ data []byte }

// frameCodec passes relayed frames through as bytes and encodes the messages of GenerateProgram as
// protocol buffers.
type frameCodec struct{}

func (frameCodec) Marshal(v any) ([]byte, error) {
	if f, ok := v.(*frame); ok {
		return f.data, nil
	}
	return proto.Marshal(v.(proto.Message))
}

func (frameCodec) Unmarshal(data []byte, v any) error {
	if f, ok := v.(*frame); ok {
		f.data = append([]byte(nil), data...)
		return nil
	}
	return proto.Unmarshal(data, v.(proto.Message))
}

func (frameCodec) Name() string { return "proto" }

var _ encoding.Codec = frameCodec{}
