//! Which address a request counts against (docs/api.md, Rate limits): the TCP peer, or,
//! when the peer is a trusted proxy, the right-most `X-Forwarded-For` entry that is not a
//! trusted proxy (entries left of it are the client's and may be forged; poem's `RealIp`
//! trusts the left-most, so it is not used).

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use poem::http::HeaderMap;

/// An address or a CIDR network: an [`ipnet::IpNet`] that also reads a bare address, and
/// an IPv4-mapped IPv6 one as IPv4 (as requests are counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String")]
pub struct IpNet(ipnet::IpNet);

impl FromStr for IpNet {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let net = t
            .parse::<ipnet::IpNet>()
            .or_else(|_| t.parse::<IpAddr>().map(ipnet::IpNet::from))
            .map_err(|_| {
                format!("'{s}' is not an IP address or CIDR network (like 10.0.0.1 or 10.0.0.0/8)")
            })?;
        let mapped = match net {
            ipnet::IpNet::V6(v6) => v6.addr().to_ipv4_mapped().map(|v4| {
                ipnet::Ipv4Net::new_assert(v4, v6.prefix_len().saturating_sub(96)).into()
            }),
            ipnet::IpNet::V4(_) => None,
        };
        Ok(IpNet(mapped.unwrap_or(net)))
    }
}

impl TryFrom<String> for IpNet {
    type Error = String;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl IpNet {
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.contains(&ip.to_canonical())
    }
}

/// The network a client is counted by, defined with the limits that count by it.
pub use kalendorius_state::network::client_network;

#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(pub Vec<IpNet>);

impl TrustedProxies {
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(ip))
    }

    /// The client address of a request from `peer` with `headers`.
    pub fn client_ip(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> IpAddr {
        // A peer that is no socket (never the listener's) is one anonymous client, not unlimited.
        let peer = peer.map_or(IpAddr::from([0, 0, 0, 0]), |p| p.ip().to_canonical());
        if !self.contains(peer) {
            return peer;
        }
        // All X-Forwarded-For headers form one list, read from the right as bytes: a value
        // that is not text must not hide the entries proxies appended.
        headers
            .get_all("x-forwarded-for")
            .iter()
            .rev()
            .flat_map(|v| v.as_bytes().rsplit(|b| *b == b','))
            // Garbage ends the walk: everything left of it is untrustworthy too.
            .map_while(parse_forwarded_ip)
            .find(|&ip| !self.contains(ip))
            .unwrap_or(peer)
    }
}

/// One `X-Forwarded-For` entry: an address, possibly with a port.
fn parse_forwarded_ip(entry: &[u8]) -> Option<IpAddr> {
    let entry = std::str::from_utf8(entry.trim_ascii()).ok()?;
    let ip = entry
        .parse::<IpAddr>()
        .or_else(|_| entry.parse::<SocketAddr>().map(|s| s.ip()))
        .ok()?;
    Some(ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use poem::http::HeaderValue;

    use super::*;

    #[test]
    fn an_ipv6_client_is_its_64_and_an_ipv4_one_itself() {
        let net = |s: &str| client_network(s.parse().unwrap());
        assert_eq!(net("2001:db8:1:2:aaaa::1"), net("2001:db8:1:2:ffff:1:2:3"));
        assert_eq!(net("2001:db8:1:2::5").to_string(), "2001:db8:1:2::");
        assert_ne!(net("2001:db8:1:2::1"), net("2001:db8:1:3::1"));
        assert_eq!(net("::ffff:192.0.2.7"), net("192.0.2.7"));
        assert_eq!(net("::ffff:192.0.2.7").to_string(), "192.0.2.7");
        assert_ne!(net("192.0.2.7"), net("192.0.2.8"));
    }

    fn headers(xff: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    fn peer(s: &str) -> Option<SocketAddr> {
        Some(SocketAddr::new(s.parse().unwrap(), 4000))
    }

    #[test]
    fn untrusted_peer_is_the_client_whatever_the_header_says() {
        let t = TrustedProxies(vec!["10.0.0.0/8".parse().unwrap()]);
        let ip = t.client_ip(peer("203.0.113.9"), &headers(&["6.6.6.6"]));
        assert_eq!(ip, "203.0.113.9".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn behind_trusted_proxies_the_rightmost_untrusted_entry_wins() {
        let t = TrustedProxies(vec![
            "10.0.0.0/8".parse().unwrap(),
            "192.0.2.1".parse().unwrap(),
        ]);
        let h = headers(&["6.6.6.6, 198.51.100.7", "192.0.2.1"]);
        let ip = t.client_ip(peer("10.1.2.3"), &h);
        assert_eq!(ip, "198.51.100.7".parse::<IpAddr>().unwrap());
        // No header: the proxy itself is all we know.
        let ip = t.client_ip(peer("10.1.2.3"), &HeaderMap::new());
        assert_eq!(ip, "10.1.2.3".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn a_garbage_entry_stands_for_the_proxy_only_where_it_is() {
        let t = TrustedProxies(vec!["10.0.0.0/8".parse().unwrap()]);
        let mut h = HeaderMap::new();
        let value = HeaderValue::from_bytes(b"6.6.6.6, \xff, 198.51.100.7").unwrap();
        h.append("x-forwarded-for", value);
        let ip = t.client_ip(peer("10.1.2.3"), &h);
        assert_eq!(ip, "198.51.100.7".parse::<IpAddr>().unwrap());
        let mut h = HeaderMap::new();
        let value = HeaderValue::from_bytes(b"198.51.100.7, \xff").unwrap();
        h.append("x-forwarded-for", value);
        let ip = t.client_ip(peer("10.1.2.3"), &h);
        assert_eq!(ip, "10.1.2.3".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn mapped_ipv6_counts_as_ipv4() {
        let t = TrustedProxies(vec!["127.0.0.1".parse().unwrap()]);
        let ip = t.client_ip(peer("::ffff:127.0.0.1"), &headers(&["[2001:db8::1]:443"]));
        assert_eq!(ip, "2001:db8::1".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn networks_parse_strictly() {
        assert!("10.0.0.0/33".parse::<IpNet>().is_err());
        assert!("nonsense".parse::<IpNet>().is_err());
        let contains =
            |net: &str, ip: &str| net.parse::<IpNet>().unwrap().contains(ip.parse().unwrap());
        assert!(contains("fd00::/8", "fd12::1"));
        assert!(contains("0.0.0.0/0", "8.8.8.8"));
    }
}
