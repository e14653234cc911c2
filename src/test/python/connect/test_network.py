"""The Spark Connect server the suite starts (its gRPC service, the driver's RPC and block manager)
listens on loopback only."""

import listening


def test_the_connect_server_listens_on_loopback_only(server, spark):
    spark.range(100).repartition(2).count()  # a shuffle: the block manager serves blocks
    found = listening.sockets(server.pid)
    assert server.port in [port for _, _, port in found], f"the gRPC port among {found}"
    assert len(found) >= 3, f"gRPC, the driver's RPC and block manager servers; found {found}"
    assert [s for s in found if not s[1].is_loopback] == []
