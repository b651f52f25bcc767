package bench

import (
	"context"
	"errors"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

func TestSampleExchangeIsARealMessage(t *testing.T) {
	request, response, err := SampleExchange()
	if err != nil {
		t.Fatal(err)
	}
	// The size of a real CHOOSE_PARITY_CALL and its reply, as agents send them.
	if len(request) < 400 || len(request) > 800 || len(response) < 250 || len(response) > 600 {
		t.Errorf("request %d B, response %d B: not league-sized", len(request), len(response))
	}
	req, rpcErr := protocol.ParseRequest(request)
	if rpcErr != nil {
		t.Fatalf("request does not parse: %v", rpcErr)
	}
	in, ok := protocol.Route(req.Method, req.Params)
	if !ok || in.MessageType != protocol.TypeChooseParityCall {
		t.Errorf("request routes to %q (ok %v), want %s", in.MessageType, ok, protocol.TypeChooseParityCall)
	}
	raw, err := protocol.ParseReply(response)
	if err != nil {
		t.Fatalf("response does not parse: %v", err)
	}
	var reply protocol.MoveAnswer
	if err := protocol.Decode(raw, &reply); err != nil || reply.Choice != "even" {
		t.Errorf("response decodes to %+v, %v", reply, err)
	}
}

func TestRaw(t *testing.T) {
	res, err := Raw(context.Background(), RawOptions{Concurrency: 4, Duration: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Exchanges <= 0 || res.PerSecond() <= 0 || res.Elapsed < 100*time.Millisecond {
		t.Errorf("no exchanges measured: %+v", res)
	}
	if res.Concurrency != 4 || res.RequestBytes == 0 || res.ResponseBytes == 0 {
		t.Errorf("result does not describe the measure: %+v", res)
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil && !res.CPUKnown {
		t.Errorf("the raw measure's CPU is unknown with /proc present: %+v", res)
	}
}

func TestRawStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Raw(ctx, RawOptions{Concurrency: 2, Duration: time.Hour}); !errors.Is(err, context.Canceled) {
		t.Errorf("Raw with a cancelled context = %v, want context.Canceled", err)
	}
}

// BenchmarkRawExchange is one CHOOSE_PARITY_CALL exchange over keep-alive
// loopback HTTP, 32 in flight (the league's default concurrency: 8
// referees x 2 matches x 2 players), reported as exchanges/s.
func BenchmarkRawExchange(b *testing.B) {
	request, response, err := SampleExchange()
	if err != nil {
		b.Fatal(err)
	}
	srv, err := startRawServer(response)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.close()
	const concurrency = 32
	client := newRawClient(request, concurrency)
	defer client.close()
	b.SetBytes(int64(len(request) + len(response)))
	b.SetParallelism(max(1, concurrency/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := client.exchange(context.Background(), srv.url); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "exchanges/s")
}

// BenchmarkSampleExchange is the cost of encoding the league message the
// raw measure sends, for comparison with an exchange.
func BenchmarkSampleExchange(b *testing.B) {
	for b.Loop() {
		if _, _, err := SampleExchange(); err != nil {
			b.Fatal(err)
		}
	}
}
