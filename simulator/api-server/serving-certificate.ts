/**
 * The simulated API server's serving certificate, as EKS gives a cluster one: self-signed for
 * 127.0.0.1 and its own certificate authority, valid 2020–2120. It is the simulation's own and
 * guards nothing; it is here so that clients verify TLS exactly as they do against EKS (the
 * functions build their kubeconfig from DescribeCluster's `certificateAuthority.data`).
 */

export const SERVING_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBlTCCATugAwIBAgIBATAKBggqhkjOPQQDAjAjMSEwHwYDVQQDDBhzaW11bGF0
ZWQta3ViZS1hcGlzZXJ2ZXIwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEwMDAw
MDBaMCMxITAfBgNVBAMMGHNpbXVsYXRlZC1rdWJlLWFwaXNlcnZlcjBZMBMGByqG
SM49AgEGCCqGSM49AwEHA0IABAr8x3umkaBjMPHy1BpKAA1moP0eoqbImcRVKDKr
IsZSt8E9lAjLX1Nqr7CFEfa8m+M4ETdcT7oRSlSlPVfjOkajXjBcMBoGA1UdEQQT
MBGHBH8AAAGCCWxvY2FsaG9zdDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQE
AwIChDAdBgNVHQ4EFgQUs7ucNm8PQXGEjmjtMzl6uDTtEJMwCgYIKoZIzj0EAwID
SAAwRQIgdvDXbzDVulTjbPsJDiVQbMDsGEbVZXjMkjErXoDvrFsCIQDjY6AtXwhS
/MknctpO8R/bXWGbKyvjUv6dNcizk37OnA==
-----END CERTIFICATE-----
`;

export const SERVING_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgbw5sZYv8pygshra7
Y+/jggeC9lBTMxKsxLMXop/X18qhRANCAAQK/Md7ppGgYzDx8tQaSgANZqD9HqKm
yJnEVSgyqyLGUrfBPZQIy19Taq+whRH2vJvjOBE3XE+6EUpUpT1X4zpG
-----END PRIVATE KEY-----
`;

/** What DescribeCluster returns as `certificateAuthority.data`: base64 of the PEM. */
export const CERTIFICATE_AUTHORITY_DATA = Buffer.from(SERVING_CERTIFICATE).toString('base64');
