//! The network a client is counted by, for the limits and the stores that key counters by it.

use std::net::IpAddr;

/// The network a client is counted by (every per-IP limit and cap): an IPv6 address by its
/// /64, since a host normally holds a whole /64 and could rotate addresses past every limit.
pub fn client_network(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => ipnet::Ipv6Net::new_assert(v6, 64).network().into(),
        v4 => v4,
    }
}
