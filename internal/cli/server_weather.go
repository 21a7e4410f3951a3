package cli

import (
	"context"
	"encoding/json"
	"hash/fnv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The weather server: made-up but deterministic forecasts. The demo tour
// keeps it offline at first and brings it online mid-session, to show a
// server connecting and the catalog update that follows.

const weatherInstructions = "Forecasts are invented for demonstrations: deterministic per city, never real weather."

// maxForecastDays bounds a forecast's length.
const maxForecastDays = 7

type forecastArgs struct {
	City string `json:"city" jsonschema:"the city name, e.g. Lisbon"`
	Days int    `json:"days,omitempty" jsonschema:"how many days, 1 to 7; default 3"`
}

// forecast is what forecast returns, as forecastSchema declares it.
type forecast struct {
	City string        `json:"city"`
	Days []forecastDay `json:"days"`
}

type forecastDay struct {
	Day     int    `json:"day"`
	Summary string `json:"summary"`
	HighC   int    `json:"high_c"`
	LowC    int    `json:"low_c"`
}

var forecastSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"city":{"type":"string"},` +
	`"days":{"type":"array","items":{"type":"object","properties":{` +
	`"day":{"type":"integer","description":"0 is today"},` +
	`"summary":{"type":"string"},` +
	`"high_c":{"type":"integer","description":"highest temperature, degrees Celsius"},` +
	`"low_c":{"type":"integer","description":"lowest temperature, degrees Celsius"}},` +
	`"required":["day","summary","high_c","low_c"]}}},` +
	`"required":["city","days"]}`)

var skies = []string{"sunny", "cloudy", "light rain", "windy", "fog in the morning"}

func newWeatherServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"},
		&mcp.ServerOptions{Instructions: weatherInstructions})
	mcp.AddTool(s, &mcp.Tool{Name: "forecast", Description: "Daily forecast for a city.", OutputSchema: forecastSchema},
		func(_ context.Context, _ *mcp.CallToolRequest, in forecastArgs) (*mcp.CallToolResult, *forecast, error) {
			return nil, makeForecast(in.City, in.Days), nil
		})
	return s
}

// makeForecast derives a forecast from the city name alone.
func makeForecast(city string, days int) *forecast {
	if days <= 0 {
		days = 3
	}
	days = min(days, maxForecastDays)
	h := fnv.New32a()
	_, _ = h.Write([]byte(city))
	seed := int(h.Sum32() % 1000)
	out := &forecast{City: city, Days: make([]forecastDay, days)}
	for d := range days {
		v := seed + 7*d
		high := 12 + v%15
		out.Days[d] = forecastDay{Day: d, Summary: skies[v%len(skies)], HighC: high, LowC: high - 4 - v%5}
	}
	return out
}
