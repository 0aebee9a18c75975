/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's files as a stop at any moment leaves them: what was appended is read back, a torn tail is not. */
class StoreFilesTest {
    @TempDir
    Path dir;

    private static byte[] bytes(final String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> texts(final List<byte[]> payloads) {
        return payloads.stream().map(p -> new String(p, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void appendedChangesAreReadBackInOrder() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            assertTrue(files.created());
            files.compact(bytes("start"));
            files.append(bytes("one"));
            files.append(bytes("two"));
        }
        try (var files = StoreFiles.open(dir)) {
            assertFalse(files.created());
            assertArrayEquals(bytes("start"), files.snapshot());
            assertEquals(List.of("one", "two"), texts(files.changes()));
        }
    }

    @Test
    void aTornLastFrameIsCutOffAndTheNextAppendFollowsTheLastWholeOne() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes("start"));
            files.append(bytes("kept"));
            files.append(bytes("torn"));
        }
        final Path log = dir.resolve(StoreFiles.LOG_FILE);
        final long size = Files.size(log);
        try (var channel = java.nio.channels.FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.truncate(size - 2);                        // the process died while writing the second frame
        }
        try (var files = StoreFiles.open(dir)) {
            assertEquals(List.of("kept"), texts(files.changes()));
            files.append(bytes("after"));
        }
        try (var files = StoreFiles.open(dir)) {
            assertEquals(List.of("kept", "after"), texts(files.changes()));
        }
    }

    @Test
    void aCorruptFrameEndsTheLog() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes("start"));
            files.append(bytes("good"));
            files.append(bytes("flipped"));
        }
        final Path log = dir.resolve(StoreFiles.LOG_FILE);
        final byte[] content = Files.readAllBytes(log);
        content[content.length - 1] ^= 1;
        Files.write(log, content);
        try (var files = StoreFiles.open(dir)) {
            assertEquals(List.of("good"), texts(files.changes()));
        }
        try (var listing = Files.list(dir)) {
            assertTrue(listing.noneMatch(p -> p.getFileName().toString().startsWith("log.damaged")),
                "a damaged last frame is a stop's, not the disk's");
        }
    }

    @Test
    void aDamagedFrameWithMoreAfterItEndsWhatIsReadAndTheLogIsKeptAside() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes("start"));
            files.append(bytes("first"));
            files.append(bytes("second"));
            files.append(bytes("third"));
        }
        final Path log = dir.resolve(StoreFiles.LOG_FILE);
        final byte[] content = Files.readAllBytes(log);
        content[20 + 5 + 20 + 2] ^= 1;                         // inside "second"'s payload
        Files.write(log, content);
        try (var files = StoreFiles.open(dir)) {
            assertEquals(List.of("first"), texts(files.changes()));
        }
        try (var listing = Files.list(dir)) {
            final var aside = listing.filter(p -> p.getFileName().toString().startsWith("log.damaged")).toList();
            assertEquals(1, aside.size(), aside.toString());
            assertArrayEquals(content, Files.readAllBytes(aside.get(0)));
        }
    }

    @Test
    void aLogWithoutASnapshotIsACreationCutShortAndIsStartedAgain() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.append(bytes("before the first snapshot"));
        }
        try (var files = StoreFiles.open(dir)) {
            assertTrue(files.created());
            assertTrue(files.changes().isEmpty());
        }
    }

    @Test
    void compactionReplacesTheLogAndAStopBetweenItsStepsAppliesNothingTwice() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes(""));
            files.append(bytes("a"));
            files.append(bytes("b"));
            files.compact(bytes("ab"));
            files.append(bytes("c"));
        }
        try (var files = StoreFiles.open(dir)) {
            assertArrayEquals(bytes("ab"), files.snapshot());
            assertEquals(List.of("c"), texts(files.changes()));
        }

        // A stop after the new snapshot was renamed into place, before the log was emptied: the log still holds
        // what the snapshot covers.
        final Path log = dir.resolve(StoreFiles.LOG_FILE);
        final byte[] before = Files.readAllBytes(log);
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes("abc"));
        }
        Files.write(log, before);
        try (var files = StoreFiles.open(dir)) {
            assertArrayEquals(bytes("abc"), files.snapshot());
            assertEquals(List.of(), texts(files.changes()));
            files.append(bytes("d"));
        }
        try (var files = StoreFiles.open(dir)) {
            assertEquals(List.of("d"), texts(files.changes()));
        }
    }

    /**
     * A compaction's snapshot is written while appends go on (they must not wait for it: a commit step that takes
     * 5 s is answered whether or not its record is on disk). A stop at any of its steps loses no append.
     */
    @Test
    void appendsDuringACompactionSurviveAStopAtEachOfItsSteps() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes(""));
            files.append(bytes("a"));
            final long covered = files.beginCompaction();
            files.append(bytes("b"));                      // while the snapshot is being written
            // Stopped here: neither the snapshot nor the old log's deletion happened.
        }
        assertTrue(Files.exists(dir.resolve(StoreFiles.OLD_LOG_FILE)));
        for (int open = 0; open < 2; open++) {                 // read in place: the same however often
            try (var files = StoreFiles.open(dir)) {
                assertArrayEquals(bytes(""), files.snapshot());
                assertEquals(List.of("a", "b"), texts(files.changes()));
                assertTrue(Files.exists(dir.resolve(StoreFiles.OLD_LOG_FILE)), "kept until a snapshot covers it");
            }
        }
        try (var files = StoreFiles.open(dir)) {
            files.append(bytes("c"));
        }
        try (var files = StoreFiles.open(dir)) {
            assertEquals(List.of("a", "b", "c"), texts(files.changes()));
            final long covered = files.beginCompaction();
            files.append(bytes("d"));
            files.writeSnapshot(covered, bytes("abc"));
            files.append(bytes("e"));
            // Stopped here: the snapshot is in place, the old log not yet deleted.
        }
        try (var files = StoreFiles.open(dir)) {
            assertArrayEquals(bytes("abc"), files.snapshot());
            assertEquals(List.of("d", "e"), texts(files.changes()));
            final long covered = files.beginCompaction();
            files.writeSnapshot(covered, bytes("abcde"));
            files.endCompaction(5);
            files.append(bytes("f"));
        }
        try (var files = StoreFiles.open(dir)) {
            assertArrayEquals(bytes("abcde"), files.snapshot());
            assertEquals(List.of("f"), texts(files.changes()));
        }
    }

    /** The old log is closed whole before the log starts: damage in it is the disk's, and refused. */
    @Test
    void aDamagedOldLogIsRefusedNotReadWithAGap() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes(""));
            files.append(bytes("a"));
            files.append(bytes("b"));
            files.beginCompaction();
            files.append(bytes("c"));
        }
        final Path old = dir.resolve(StoreFiles.OLD_LOG_FILE);
        final byte[] content = Files.readAllBytes(old);
        content[30] ^= 1;                                  // inside the first frame
        Files.write(old, content);
        final var error = assertThrows(IOException.class, () -> StoreFiles.open(dir));
        assertTrue(error.getMessage().contains("is damaged"), error.getMessage());
    }

    /** A snapshot the disk has no room for is not written: no partial file eats the commit records' reserve. */
    @Test
    void aSnapshotThatWouldFillTheDiskIsNotWrittenAndLosesNothing() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes(""));
            files.append(bytes("a"));
            final long covered = files.beginCompaction();
            // The disk as if it held 1 KiB less than the snapshot and the reserve need.
            files.snapshotReserve(Files.getFileStore(dir).getUsableSpace() - 1024);
            final var error = assertThrows(IOException.class, () -> files.writeSnapshot(covered, new byte[2048]));
            assertTrue(error.getMessage().contains("would leave less than"), error.getMessage());
            assertFalse(Files.exists(dir.resolve(StoreFiles.SNAPSHOT_FILE + ".new")));
            files.append(bytes("b"));
        }
        try (var files = StoreFiles.open(dir)) {
            assertEquals(List.of("a", "b"), texts(files.changes()));
        }
    }

    @Test
    void aDamagedSnapshotIsRefusedNotReadAsEmpty() throws IOException {
        try (var files = StoreFiles.open(dir)) {
            files.compact(bytes("everything"));
        }
        final Path snapshot = dir.resolve(StoreFiles.SNAPSHOT_FILE);
        final byte[] content = Files.readAllBytes(snapshot);
        content[content.length - 1] ^= 1;
        Files.write(snapshot, content);
        final var error = assertThrows(IOException.class, () -> StoreFiles.open(dir));
        assertTrue(error.getMessage().contains("is damaged"), error.getMessage());
    }
}
