/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Status;
import org.apache.pekko.pattern.Patterns;
import org.apache.pekko.util.Timeout;
import org.opendaylight.controller.cluster.datastore.messages.MakeLeaderLocal;
import org.opendaylight.controller.cluster.datastore.utils.ActorUtils;
import org.opendaylight.controller.cluster.raft.client.messages.GetOnDemandRaftState;
import org.opendaylight.controller.cluster.raft.client.messages.OnDemandRaftState;
import org.opendaylight.raft.api.RaftRole;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import scala.concurrent.Await;
import scala.concurrent.duration.FiniteDuration;

/**
 * The shards of the configuration datastore that hold the stored subtrees, as this member's replicas see them,
 * through the messages the cluster's JMX statistics and cluster-admin send them: a shard's Raft term (no cache: a
 * cached term could predate a change of leader), its replicas' members, and a leadership transfer to this member.
 * A shard actor is looked up once and again after a failed ask (a shard that was restarted).
 */
final class DatastoreShards implements ClusterStart.Shards {
    private static final FiniteDuration TIMEOUT = FiniteDuration.create(5, TimeUnit.SECONDS);
    private static final FiniteDuration TRANSFER_TIMEOUT = FiniteDuration.create(30, TimeUnit.SECONDS);
    private static final long LEAD_DEADLINE_MILLIS = 300_000;
    private static final String DEFAULT_SHARD = "default";

    private final ActorUtils actorUtils;
    private final List<YangInstanceIdentifier> roots;
    private final Map<String, ActorRef> shards = new ConcurrentHashMap<>();

    DatastoreShards(final ActorUtils actorUtils, final List<YangInstanceIdentifier> roots) {
        this.actorUtils = actorUtils;
        this.roots = List.copyOf(roots);
    }

    /**
     * The shard that holds {@code root}: its module's shard in the cluster's module configuration, else the
     * default shard (what the datastore's own shard strategy decides; its package is not exported).
     */
    private String shardName(final YangInstanceIdentifier root) {
        final var configuration = actorUtils.getConfiguration();
        final String module = configuration.getModuleNameFromNameSpace(
            root.getPathArguments().get(0).getNodeType().getNamespace().toString());
        final String shard = module == null ? null : configuration.getShardNameForModule(module);
        return shard != null ? shard : DEFAULT_SHARD;
    }

    @Override
    public List<String> members() {
        final Set<String> names = new TreeSet<>();
        for (YangInstanceIdentifier root : roots) {
            actorUtils.getConfiguration().getMembersFromShardName(shardName(root))
                .forEach(member -> names.add(member.getName()));
        }
        return List.copyOf(names);
    }

    @Override
    public void lead(final YangInstanceIdentifier root) throws IOException {
        final String shardName = shardName(root);
        final long deadline = System.currentTimeMillis() + LEAD_DEADLINE_MILLIS;
        IOException last = null;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (RaftRole.Leader == state(shardName).getRaftState()) {
                    return;
                }
                ask(shardName, MakeLeaderLocal.INSTANCE, TRANSFER_TIMEOUT);
            } catch (IOException e) {
                // No leader elected yet, or a transfer that did not finish in time: the shard elects again.
                last = e;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting to lead shard " + shardName, e);
            }
        }
        throw new IOException("this member could not become the leader of shard " + shardName + " within "
            + LEAD_DEADLINE_MILLIS / 1000 + " s", last);
    }

    @Override
    public long term(final YangInstanceIdentifier root) throws IOException {
        return state(shardName(root)).getCurrentTerm();
    }

    @Override
    public OptionalLong leadingTerm(final YangInstanceIdentifier root) throws IOException {
        final OnDemandRaftState state = state(shardName(root));
        return RaftRole.Leader == state.getRaftState() ? OptionalLong.of(state.getCurrentTerm())
            : OptionalLong.empty();
    }

    private OnDemandRaftState state(final String shardName) throws IOException {
        final Object answer = ask(shardName, GetOnDemandRaftState.INSTANCE, TIMEOUT);
        if (answer instanceof OnDemandRaftState state) {
            return state;
        }
        throw new IOException("shard " + shardName + " answered " + answer);
    }

    @SuppressWarnings("checkstyle:IllegalCatch")         // Await.result throws what the future failed with
    private Object ask(final String shardName, final Object message, final FiniteDuration timeout)
            throws IOException {
        final ActorRef shard = shards.computeIfAbsent(shardName, name -> actorUtils.findLocalShard(name)
            .orElse(null));
        if (shard == null) {
            throw new IOException("this member holds no replica of shard " + shardName);
        }
        try {
            final Object answer = Await.result(Patterns.ask(shard, message, new Timeout(timeout)), timeout);
            if (answer instanceof Status.Failure failure) {
                throw new IOException("shard " + shardName + " refused " + message + ": " + failure.cause(),
                    failure.cause());
            }
            return answer;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking shard " + shardName, e);
        } catch (TimeoutException e) {
            shards.remove(shardName);
            throw new IOException("shard " + shardName + " did not answer " + message + " within " + timeout, e);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            shards.remove(shardName);
            throw new IOException("shard " + shardName + " did not answer " + message + ": " + e, e);
        }
    }
}
