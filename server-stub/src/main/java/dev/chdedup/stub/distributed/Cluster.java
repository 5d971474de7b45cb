package dev.chdedup.stub.distributed;

import java.util.ArrayList;
import java.util.List;

/**
 * A cluster as ClickHouse's {@code Cluster} describes one (a {@code remote_servers} entry): named shards, each of
 * replicas, with a weight and {@code internal_replication}. Shards are numbered from 1 ({@code shard_num}), replicas
 * within a shard from 1 ({@code replica_num}). An address's port is the port the stub speaks to another server on:
 * its HTTP port (HTTPS when {@code secure}). {@link #slotToShard} is ClickHouse's {@code slot_to_shard}: a sharding
 * key's value modulo {@link #totalWeight} picks the slot, and shard {@code i} holds {@code weight(i)} slots in order.
 */
public final class Cluster {
    /** One server of a shard. {@code shardIndex} and {@code replicaIndex} count from 1. */
    public record Address(String host, int port, String user, String password, String defaultDatabase, boolean secure,
                          int shardIndex, int replicaIndex) {
        public Address {
            user = user == null || user.isEmpty() ? "default" : user;
            password = password == null ? "" : password;
            defaultDatabase = defaultDatabase == null ? "" : defaultDatabase;
        }

        /** {@code host:port}, as ClickHouse names a replica in its messages ({@code Received from host:port}). */
        public String hostPort() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }

        /** This address reached over HTTPS ({@code secure}) or HTTP, on the same port. */
        public Address secure(boolean secure) {
            return new Address(host, port, user, password, defaultDatabase, secure, shardIndex, replicaIndex);
        }

        /** This address with another position in its cluster. */
        public Address at(int shard, int replica) {
            return new Address(host, port, user, password, defaultDatabase, secure, shard, replica);
        }
    }

    /**
     * A shard: {@code shardNum} from 1, its weight (0: takes no rows of an insert), its replicas in order, and its
     * name (a configuration's {@code <name>}, given for every shard of a cluster or for none; empty when none).
     */
    public record ShardInfo(int shardNum, int weight, boolean internalReplication, List<Address> replicas, String name) {
        public ShardInfo(int shardNum, int weight, boolean internalReplication, List<Address> replicas) {
            this(shardNum, weight, internalReplication, replicas, "");
        }

        public ShardInfo {
            name = name == null ? "" : name;
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("shard " + shardNum + " has no replica");
            }
            if (weight < 0) {
                throw new IllegalArgumentException("shard " + shardNum + " has a negative weight");
            }
            replicas = List.copyOf(replicas);
        }
    }

    private final String name;
    private final List<ShardInfo> shards;
    private final int[] slotToShard;

    public Cluster(String name, List<ShardInfo> shards) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("cluster " + name + " has no shard");
        }
        this.name = name;
        this.shards = List.copyOf(shards);
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            for (int w = 0; w < shards.get(i).weight(); w++) {
                slots.add(i);
            }
        }
        this.slotToShard = slots.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * A cluster of {@code shards} lists of addresses (host, port) with weight 1 and the given internal replication,
     * numbering shards and replicas in order.
     */
    public static Cluster of(String name, boolean internalReplication, List<List<Address>> shards) {
        List<ShardInfo> infos = new ArrayList<>();
        for (int s = 0; s < shards.size(); s++) {
            List<Address> replicas = new ArrayList<>();
            for (int r = 0; r < shards.get(s).size(); r++) {
                replicas.add(shards.get(s).get(r).at(s + 1, r + 1));
            }
            infos.add(new ShardInfo(s + 1, 1, internalReplication, replicas));
        }
        return new Cluster(name, infos);
    }

    public String name() {
        return name;
    }

    public List<ShardInfo> shards() {
        return shards;
    }

    /** Shard {@code shardNum}, counting from 1. */
    public ShardInfo shard(int shardNum) {
        return shards.get(shardNum - 1);
    }

    /** The sum of the shards' weights: the modulus of a sharding key. */
    public int totalWeight() {
        return slotToShard.length;
    }

    /** The index (from 0) of the shard slot {@code slot} (from 0, below {@link #totalWeight}) belongs to. */
    public int slotToShard(int slot) {
        return slotToShard[slot];
    }

    /** Every address, shard by shard. */
    public List<Address> addresses() {
        List<Address> all = new ArrayList<>();
        for (ShardInfo s : shards) {
            all.addAll(s.replicas());
        }
        return all;
    }

    @Override
    public String toString() {
        return "Cluster " + name + " " + shards;
    }
}
