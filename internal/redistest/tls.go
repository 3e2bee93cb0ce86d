package redistest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// A CA is a certificate authority made for one test: the servers' and the
// clients' certificates are signed by it.
type CA struct {
	// CertFile is the CA certificate's PEM file, for --cacert.
	CertFile string
	// Pool holds the CA certificate.
	Pool *x509.CertPool

	cert   *x509.Certificate
	key    *ecdsa.PrivateKey
	dir    string
	serial int64
}

// NewCA makes a certificate authority whose files live in dir.
func NewCA(dir string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "slotlint test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	ca := &CA{cert: cert, key: key, dir: dir, serial: 1, Pool: x509.NewCertPool()}
	ca.Pool.AddCert(cert)
	ca.CertFile = filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(ca.CertFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		return nil, err
	}
	return ca, nil
}

// Issue makes a certificate valid for the given IP addresses and host names
// only, for a server and a client alike, and writes it and its key to
// name.crt and name.key in the CA's directory.
func (ca *CA) Issue(name string, hosts ...string) (certFile, keyFile string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	ca.serial++
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(ca.serial),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return "", "", err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", err
	}
	certFile = filepath.Join(ca.dir, name+".crt")
	keyFile = filepath.Join(ca.dir, name+".key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		return "", "", err
	}
	return certFile, keyFile, nil
}

// ClientConfig returns a TLS configuration that trusts the CA and checks
// that the server's certificate is valid for serverName.
func (ca *CA) ClientConfig(serverName string) *tls.Config {
	return &tls.Config{RootCAs: ca.Pool, ServerName: serverName, MinVersion: tls.VersionTLS12}
}

// nodeTLS is one server's TLS files.
type nodeTLS struct {
	ca        *CA
	cert, key string
}

func (n *nodeTLS) directives() string {
	return fmt.Sprintf("tls-cert-file %s\ntls-key-file %s\ntls-ca-cert-file %s\ntls-auth-clients no\ntls-cluster yes\ntls-replication yes\n",
		quote(n.cert), quote(n.key), quote(n.ca.CertFile))
}
