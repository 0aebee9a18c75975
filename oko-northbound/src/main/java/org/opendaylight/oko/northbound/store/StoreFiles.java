/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a configuration store: a snapshot and a log of changes after it, both as frames
 * {@code magic, sequence number, length, CRC-32C (of the sequence number, length and payload), payload}. A change
 * is durable when {@link #append} returns (the log is forced to disk). A frame that was being written when the
 * process died is cut off at the next open: a torn tail is never read as data. A damaged frame with more after it
 * (the disk's fault, not a stop's) ends what is read too, and the whole log is copied aside first.
 * A compaction has three steps, so that appends never wait for a snapshot to be written:
 * {@link #beginCompaction} moves the log aside (to {@code log.old}) and starts a new one; {@link #writeSnapshot}
 * writes the snapshot of everything up to that point (written beside, forced, renamed), from any thread, while
 * appends go on; {@link #endCompaction} deletes the old log. Frames the snapshot already covers (sequence number not
 * above the snapshot's, or not above a frame read before) are skipped, so a stop between the steps loses nothing
 * and applies nothing twice: an open that finds {@code log.old} reads it where it is, before the log, and leaves it
 * until a snapshot covers it. A store is
 * created by its first snapshot: a log without one is from a creation cut short, and is dropped.
 *
 * <p>Not thread-safe: its owner serializes the calls, but for {@link #writeSnapshot}.
 */
final class StoreFiles implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreFiles.class);
    static final String SNAPSHOT_FILE = "snapshot";
    static final String LOG_FILE = "log";
    /** The log a compaction moved aside, until its snapshot is written. */
    static final String OLD_LOG_FILE = "log.old";
    /**
     * The free space a snapshot leaves on the disk: it must never take what the commit step's records need
     * ({@link ConfigurationStore#DEFAULT_RESERVE_BYTES}).
     */
    static final long SNAPSHOT_RESERVE_BYTES = ConfigurationStore.DEFAULT_RESERVE_BYTES;
    private static final int MAGIC = 0x4f4b4f53;                    // "OKOS"
    private static final int HEADER = Integer.BYTES + Long.BYTES + Integer.BYTES + Integer.BYTES;
    /** Larger than any configuration this store holds; a length above it is a corrupt frame. */
    private static final int MAX_PAYLOAD = 1 << 30;

    private final Path dir;
    private final boolean created;
    private final byte[] snapshot;
    private final List<byte[]> changes;
    private FileChannel log;
    private long sequence;
    /** Why appends are refused, when a failed append could not be undone. */
    private String broken;
    private long snapshotBytes;
    private volatile long snapshotReserve = SNAPSHOT_RESERVE_BYTES;
    private long compactAbove = 4L << 20;
    /** Runs before a snapshot is written (tests: a slow disk). */
    private volatile Runnable beforeSnapshot = () -> { };

    private StoreFiles(final Path dir, final boolean created, final byte[] snapshot, final long snapshotSequence,
            final List<byte[]> changes, final FileChannel log, final long sequence) {
        this.dir = dir;
        this.created = created;
        this.snapshot = snapshot;
        this.changes = changes;
        this.log = log;
        this.sequence = Math.max(sequence, snapshotSequence);
        snapshotBytes = snapshot == null ? 0 : snapshot.length;
    }

    /** Opens the store in {@code dir}, creating the directory when there is none. */
    static StoreFiles open(final Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.deleteIfExists(dir.resolve(SNAPSHOT_FILE + ".new"));       // a compaction cut short
        final Path snapshotPath = dir.resolve(SNAPSHOT_FILE);
        final Path logPath = dir.resolve(LOG_FILE);
        // The snapshot is written first when a store is created: without one, whatever log there is comes from a
        // creation cut short, and the store is created again.
        final boolean created = !Files.exists(snapshotPath);
        if (created) {
            Files.deleteIfExists(logPath);
            Files.deleteIfExists(dir.resolve(OLD_LOG_FILE));
            // The store's own directory entry, for a power loss right after the first snapshot.
            final Path parent = dir.toAbsolutePath().getParent();
            if (parent != null) {
                forceDirectory(parent);
            }
        }

        byte[] snapshot = null;
        long snapshotSequence = 0;
        if (!created) {
            final var frames = new ArrayList<Frame>();
            final long good = readFrames(ByteBuffer.wrap(Files.readAllBytes(snapshotPath)), frames);
            if (frames.size() != 1 || good != Files.size(snapshotPath)) {
                throw new IOException(snapshotPath + " is damaged (" + frames.size() + " whole frames in "
                    + good + " of " + Files.size(snapshotPath) + " bytes): Oko will not start on a configuration it "
                    + "cannot read whole. Restore " + dir + " from a backup, or move it aside to start empty");
            }
            snapshot = frames.get(0).payload;
            snapshotSequence = frames.get(0).sequence;
        }

        final var frames = new ArrayList<Frame>();
        final Path oldLogPath = dir.resolve(OLD_LOG_FILE);
        if (Files.exists(oldLogPath)) {
            // A compaction that did not finish: the old log is read where it is, before the log, and stays until
            // a snapshot covers it (the next compaction does not move the log aside again meanwhile). Nothing is
            // rewritten: an open is the same however often it is repeated, and needs no disk space.
            final byte[] oldBytes = Files.readAllBytes(oldLogPath);
            final long oldGood = readFrames(ByteBuffer.wrap(oldBytes), frames);
            if (oldGood < oldBytes.length) {
                // It was closed whole before the log started: not a stop's torn tail, the disk's damage. The log
                // after it would be read with a gap: refused, as a damaged snapshot is.
                throw new IOException(oldLogPath + " is damaged at byte " + oldGood + " of " + oldBytes.length
                    + ": Oko will not start on a configuration it cannot read whole. Restore " + dir
                    + " from a backup, or move it aside to start empty");
            }
        }
        final FileChannel log = FileChannel.open(logPath, CREATE, READ, WRITE);
        final long size = log.size();
        final ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(size, Integer.MAX_VALUE));
        while (bytes.hasRemaining() && log.read(bytes, bytes.position()) > 0) {
            // read until full
        }
        bytes.flip();
        final int good = (int) readFrames(bytes, frames);
        if (good < size) {
            if (!tornTail(bytes, good)) {
                // Not the frame a stop cut short: a damaged one with more after it. What follows is kept aside.
                final Path aside = dir.resolve("log.damaged-" + System.currentTimeMillis());
                Files.copy(logPath, aside);
                LOG.error("{} is damaged at byte {} of {}: the changes before it are read, the whole log is kept "
                    + "in {}", logPath, good, size, aside);
            }
            // The frame being written when the process stopped: never acknowledged, so never data.
            log.truncate(good);
            log.force(true);
        }
        log.position(good);
        final var changes = new ArrayList<byte[]>();
        long sequence = snapshotSequence;
        for (Frame frame : frames) {
            // Above the snapshot, and above every frame read before it (the old log's and the log's follow on).
            if (frame.sequence > sequence) {
                changes.add(frame.payload);
                sequence = frame.sequence;
            }
        }
        return new StoreFiles(dir, created, snapshot, snapshotSequence, changes, log, sequence);
    }

    /**
     * Whether the bytes from {@code offset} on are what a stop in the middle of an append leaves: one frame's
     * beginning, nothing after where it would end.
     */
    private static boolean tornTail(final ByteBuffer bytes, final int offset) {
        final int remaining = bytes.limit() - offset;
        if (remaining < HEADER) {
            return true;
        }
        final int length = bytes.getInt(offset + Integer.BYTES + Long.BYTES);
        return bytes.getInt(offset) == MAGIC && length >= 0 && length <= MAX_PAYLOAD
            && remaining <= HEADER + length;
    }

    /** Whether this open created the store (there was no snapshot). */
    boolean created() {
        return created;
    }

    /** The snapshot read at open, or null when there is none. */
    byte[] snapshot() {
        return snapshot;
    }

    /** The changes after the snapshot, read at open, oldest first. */
    List<byte[]> changes() {
        return changes;
    }

    /** Appends one change and forces it to disk. */
    void append(final byte[] payload) throws IOException {
        if (broken != null) {
            throw new IOException("the log cannot be written since an earlier failure (" + broken + ")");
        }
        final ByteBuffer frame = frame(sequence + 1, payload);
        final long start = log.position();
        try {
            writeFully(log, frame);
            log.force(false);
        } catch (IOException e) {
            // Leave no half frame for the next append to follow; if even that fails, append nothing more.
            try {
                log.truncate(start);
                log.position(start);
            } catch (IOException truncateFailure) {
                e.addSuppressed(truncateFailure);
                broken = e.getMessage();
            }
            throw e;
        }
        sequence++;
    }

    /** Whether the log has grown enough that a new snapshot would pay for itself. */
    boolean wantsCompaction() throws IOException {
        return log.position() > Math.max(compactAbove, 2 * snapshotBytes);
    }

    long logBytes() throws IOException {
        return log.position();
    }

    /** Makes {@code payload} the snapshot of everything appended so far, and empties the log. */
    void compact(final byte[] payload) throws IOException {
        final long covered = beginCompaction();
        writeSnapshot(covered, payload);
        endCompaction(payload.length);
    }

    /**
     * Moves the log aside and starts a new, empty one; returns the sequence number of the last frame appended, which
     * the snapshot to write covers. When the log moved aside by an earlier compaction is still there (its snapshot
     * could not be written), the log stays where it is: the next snapshot covers both.
     */
    long beginCompaction() throws IOException {
        if (broken != null) {
            throw new IOException("the log cannot be written since an earlier failure (" + broken + ")");
        }
        final Path oldLog = dir.resolve(OLD_LOG_FILE);
        if (!Files.exists(oldLog)) {
            log.force(true);
            log.close();
            try {
                Files.move(dir.resolve(LOG_FILE), oldLog, ATOMIC_MOVE);
                log = FileChannel.open(dir.resolve(LOG_FILE), CREATE, READ, WRITE, TRUNCATE_EXISTING);
                forceDirectory(dir);
            } catch (IOException e) {
                broken = "a new log could not be started: " + e.getMessage();
                throw e;
            }
        }
        return sequence;
    }

    /**
     * Writes {@code payload} as the snapshot of every frame up to {@code covered} (beside, forced, renamed): safe to
     * call from another thread while appends go on. Refused, before anything is written, when the disk would keep
     * less than {@link #SNAPSHOT_RESERVE_BYTES} free: the log goes on, and a later compaction tries again.
     */
    void writeSnapshot(final long covered, final byte[] payload) throws IOException {
        beforeSnapshot.run();
        final long free = Files.getFileStore(dir).getUsableSpace();
        final long reserve = snapshotReserve;
        if (free - HEADER - payload.length < reserve) {
            throw new IOException("a snapshot of " + payload.length + " bytes would leave less than "
                + (reserve >> 20) + " MiB free on the disk holding " + dir + " (" + (free >> 20)
                + " MiB free): not written");
        }
        final Path next = dir.resolve(SNAPSHOT_FILE + ".new");
        try (FileChannel out = FileChannel.open(next, CREATE, WRITE, TRUNCATE_EXISTING)) {
            writeFully(out, frame(covered, payload));
            out.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(next);
            throw e;
        }
        Files.move(next, dir.resolve(SNAPSHOT_FILE), ATOMIC_MOVE, REPLACE_EXISTING);
        forceDirectory(dir);
    }

    /** Sets the log size above which a snapshot is due (tests: compactions without megabytes of changes). */
    void compactAbove(final long bytes) {
        compactAbove = bytes;
    }

    /** Sets what runs before a snapshot is written (tests: a slow disk). */
    void beforeSnapshot(final Runnable hook) {
        beforeSnapshot = hook;
    }

    /** Sets the free space a snapshot must leave (tests: a disk that is full). */
    void snapshotReserve(final long bytes) {
        snapshotReserve = bytes;
    }

    /** Deletes the log moved aside: the snapshot written covers it. */
    void endCompaction(final long payloadLength) throws IOException {
        Files.deleteIfExists(dir.resolve(OLD_LOG_FILE));
        forceDirectory(dir);
        snapshotBytes = payloadLength;
    }

    private static void writeFully(final FileChannel out, final ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }

    private static void forceDirectory(final Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, READ)) {
            channel.force(true);
        }
    }

    @Override
    public void close() throws IOException {
        log.close();
    }

    /** The checksum of a frame: its sequence number, its length and its payload. */
    private static int checksum(final long sequence, final byte[] payload) {
        final CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(Long.BYTES + Integer.BYTES).putLong(sequence).putInt(payload.length).flip());
        crc.update(payload);
        return (int) crc.getValue();
    }

    private static ByteBuffer frame(final long sequence, final byte[] payload) {
        final ByteBuffer frame = ByteBuffer.allocate(HEADER + payload.length);
        frame.putInt(MAGIC).putLong(sequence).putInt(payload.length).putInt(checksum(sequence, payload)).put(payload);
        return frame.flip();
    }

    /** Reads whole, intact frames; returns the number of bytes they take (where a torn tail begins). */
    private static long readFrames(final ByteBuffer bytes, final List<Frame> out) {
        long good = 0;
        while (bytes.remaining() >= HEADER) {
            final int magic = bytes.getInt();
            final long sequence = bytes.getLong();
            final int length = bytes.getInt();
            final int crcValue = bytes.getInt();
            if (magic != MAGIC || length < 0 || length > MAX_PAYLOAD || length > bytes.remaining()) {
                break;
            }
            final byte[] payload = new byte[length];
            bytes.get(payload);
            if (checksum(sequence, payload) != crcValue) {
                break;
            }
            out.add(new Frame(sequence, payload));
            good = bytes.position();
        }
        return good;
    }

    private record Frame(long sequence, byte[] payload) {
    }
}
