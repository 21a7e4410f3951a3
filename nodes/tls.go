package nodes

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// TLSFiles name the PEM files of one side of the mutual TLS between a
// daemon and its sandbox nodes: this side's certificate and key, and the
// certificate authority whose certificates the other side must present.
type TLSFiles struct {
	Cert, Key, CA string
}

// Config loads the files into a TLS configuration for both directions of
// the connection: protoactor's remote both serves and dials. A peer without
// a certificate from CA is refused either way.
func (f TLSFiles) Config() (*tls.Config, error) {
	if f.Cert == "" || f.Key == "" || f.CA == "" {
		return nil, errors.New("nodes: mutual TLS needs a certificate, its key and the CA certificate")
	}
	cert, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	if err != nil {
		return nil, fmt.Errorf("nodes: certificate: %w", err)
	}
	caPEM, err := os.ReadFile(f.CA)
	if err != nil {
		return nil, fmt.Errorf("nodes: CA certificate: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("nodes: CA certificate %s holds no PEM certificate", f.CA)
	}
	return MutualTLS(cert, pool), nil
}

// MutualTLS is the TLS configuration of one side: it presents cert and
// accepts only peers whose certificates ca signed, as server and as
// client.
func MutualTLS(cert tls.Certificate, ca *x509.CertPool) *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		RootCAs:      ca,
		ClientCAs:    ca,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS13,
	}
}
