package sandbox

import (
	"github.com/mcpexec/mcpexec/jsplatform"
)

// installPlatform puts the JavaScript platform (web globals, repairs of
// goja's built-ins) into the run's realm, lending it the run's timers. Its
// globals are made the first time the script reads one; its repairs run
// for the code about to run (preparePlatform).
func (x *execution) installPlatform() error {
	p, err := jsplatform.Install(x.realm.vm, jsplatform.Config{
		Timer:  x.timerFunction,
		Locale: x.limits.Locale, TimeZone: x.limits.TimeZone,
		OnError: func(part string, err error) {
			x.logger.Error().Err(err).Str("part", part).Msg("sandbox: platform failed")
		},
	})
	if err != nil {
		return err
	}
	x.platform = p
	return nil
}
