package mcpexec

import (
	"github.com/mcpexec/mcpexec/hotreload"
	"github.com/mcpexec/mcpexec/pool"
)

// watchServersFile follows Options.ServersFile: after each save the pool is
// reconfigured to the file's servers (plus Options.Servers), so a server
// added to the file connects and one removed from it stops, without a
// restart. A file that cannot be read or parsed changes nothing; the error
// is logged and the servers as they were stay.
func (s *System) watchServersFile(opts Options) error {
	fixed := opts.Servers
	reload := func() {
		fromFile, err := readServersFile(opts.ServersFile)
		if err != nil {
			s.logger.Warn().Err(err).Msg("servers file not applied; the servers stay as they were")
			return
		}
		servers := append(append([]pool.ServerConfig(nil), fixed...), fromFile...)
		if err := s.pool.SetServers(servers); err != nil {
			s.logger.Warn().Err(err).Str("file", opts.ServersFile).Msg("servers file not applied; the servers stay as they were")
		}
	}
	w, err := hotreload.WatchFile(opts.ServersFile, reload, s.logger)
	if err != nil {
		return err
	}
	s.serversWatch = w
	return nil
}
