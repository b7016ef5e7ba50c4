package tankard.extension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.eclipse.jgit.api.CloneCommand;
import org.eclipse.jgit.api.CreateBranchCommand;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.ListBranchCommand;
import org.eclipse.jgit.api.PullResult;
import org.eclipse.jgit.api.ResetCommand;
import org.eclipse.jgit.api.TransportCommand;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.api.errors.InvalidRefNameException;
import org.eclipse.jgit.api.errors.RefNotFoundException;
import org.eclipse.jgit.api.errors.JGitInternalException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.outbound.OutboundPolicy;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.json.JsonSyntaxException;
import tankard.store.AtomicFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The git side of third-party extensions (ST: src/endpoints/extensions.js), with JGit where ST runs git: shallow
 * clone, fetch, pull, branch listing and checkout of extension folders. Every network call goes through
 * {@link FilteredGitConnections}. Blocking; failures are {@link Refusal}s with git's message. Messages name a folder
 * by its place in ST's layout ({@link #shown}), never by its absolute path on the server.
 */
final class GitExtensions {
    private static final Logger LOG = LoggerFactory.getLogger(GitExtensions.class);
    /** A clone is made in a folder of this name beside its target, so a failed one leaves no extension behind. */
    static final String STAGING_PREFIX = ".tankard-install-";
    /** ST's git calls give up after 5 minutes without progress. */
    private static final int TIMEOUT_SECONDS = 300;
    private static final String ORIGIN = "origin";
    private static final Set<String> MANIFEST_FIELDS = Set.of("version", "author", "display_name");

    /** ST's place of the global extensions, relative to its folder (src/constants.js, PUBLIC_DIRECTORIES). */
    private static final String GLOBAL_SHOWN = "public/scripts/extensions/third-party";

    private final FilteredGitConnections connections;
    private final Path global;

    /** @param global the folder of the global extensions; any other extension is in a user's {@code extensions/} */
    GitExtensions(FilteredGitConnections connections, Path global) {
        this.connections = connections;
        this.global = global;
    }

    /**
     * An extension's folder as answers and messages name it: {@code extensions/<name>} (in the user's folder) or
     * ST's {@code public/scripts/extensions/third-party/<name>}, not its absolute path.
     */
    String shown(Path folder) {
        return shownRoot(folder.getParent()) + "/" + folder.getFileName();
    }

    private String shownRoot(Path extensions) {
        return extensions.equals(global) ? GLOBAL_SHOWN : "extensions";
    }

    /**
     * Clones the repository into {@code target} (depth 1, the branch if given) and answers what its manifest says.
     * The clone is made aside and renamed into place once its manifest checks out; anything else removes it.
     */
    ObjectNode install(String url, String branch, Path target) {
        Path staging = target.resolveSibling(STAGING_PREFIX + UUID.randomUUID());
        try {
            CloneCommand clone = network(Git.cloneRepository()).setURI(url).setDirectory(staging.toFile()).setDepth(1);
            if (branch != null && !branch.isEmpty()) {
                clone.setBranch(branch);
            }
            try (Git ignored = clone.call()) {
                LOG.info("Extension has been cloned from {} at {} branch", url, branch == null || branch.isEmpty() ? "(default)" : branch);
            }
            ObjectNode answer = manifestFields(staging);
            Files.move(staging, target);
            return answer;
        } catch (FileAlreadyExistsException e) {
            throw Refusal.conflict("Directory already exists at " + shown(target));
        } catch (GitAPIException | RuntimeException | IOException e) {
            if (e instanceof Refusal error) {
                throw error;
            }
            Refusal failed = failure("Cloning " + url, e, target);
            // a repository that cannot be fetched or read is the URL's or branch's fault: the user's input
            throw e instanceof GitAPIException && refusal(e) == null ? Refusal.badRequest(failed.getMessage()) : failed;
        } finally {
            deleteQuietly(staging);
        }
    }

    /** ST's manifest check: {@code manifest.json} must hold a JSON object; its version, author and display name. */
    private static ObjectNode manifestFields(Path folder) throws IOException {
        Path manifest = folder.resolve("manifest.json");
        if (!Files.isRegularFile(manifest)) {
            throw Refusal.failed("Manifest file not found: the repository has no manifest.json");
        }
        JsonNode json;
        try {
            json = JsJson.parse(Files.readAllBytes(manifest));
        } catch (JsonSyntaxException e) {
            throw Refusal.failed("manifest.json is not valid JSON: " + e.getMessage());
        }
        if (!json.isObject()) {
            throw Refusal.failed("Manifest is not a valid JSON object.");
        }
        ObjectNode answer = JsJson.object();
        json.fields().forEachRemaining(field -> {
            if (MANIFEST_FIELDS.contains(field.getKey())) {
                answer.set(field.getKey(), field.getValue());
            }
        });
        return answer;
    }

    /** Pulls the current branch from origin when it is behind; the commit then checked out. */
    ObjectNode update(Path folder) {
        try (Git git = open(folder)) {
            if (git == null) {
                throw notARepository(folder);
            }
            RemoteState state = fetchAndCompare(git);
            if (!state.upToDate()) {
                String branch = git.getRepository().getBranch();
                PullResult pull = network(git.pull()).setRemote(ORIGIN).setRemoteBranchName(branch).call();
                if (!pull.isSuccessful()) {
                    throw Refusal.failed("Updating the extension failed: " + pull);
                }
                LOG.info("Extension has been updated at {}", folder);
            }
            String hash = git.getRepository().resolve(Constants.HEAD).name();
            return JsJson.object().put("shortCommitHash", hash.substring(0, 7)).put("extensionPath", shown(folder))
                    .put("isUpToDate", state.upToDate()).put("remoteUrl", state.remoteUrl());
        } catch (GitAPIException | IOException | RuntimeException e) {
            throw rethrow("Updating the extension", e, folder);
        }
    }

    /**
     * The checked-out branch and commit, and whether origin has more: a folder that is not a git checkout (or
     * has no commit) is reported up to date, without branch, as ST does.
     */
    ObjectNode version(Path folder) {
        try (Git git = open(folder)) {
            ObjectId head = git == null ? null : git.getRepository().resolve(Constants.HEAD);
            if (head == null) {
                return JsJson.object().put("currentBranchName", "").put("currentCommitHash", "")
                        .put("isUpToDate", true).put("remoteUrl", "");
            }
            RemoteState state = fetchAndCompare(git);
            return JsJson.object().put("currentBranchName", git.getRepository().getBranch())
                    .put("currentCommitHash", head.name()).put("isUpToDate", state.upToDate())
                    .put("remoteUrl", state.remoteUrl());
        } catch (GitAPIException | IOException | RuntimeException e) {
            throw rethrow("Checking the extension's version", e, folder);
        }
    }

    /** Local branches, then origin's (all of them: a shallow single-branch clone is widened first). */
    ArrayNode branches(Path folder) {
        try (Git git = openOrFail(folder)) {
            Repository repo = git.getRepository();
            if (!repo.getObjectDatabase().getShallowCommits().isEmpty()) {
                LOG.info("Unshallowing the repository at {}", folder);
                network(git.fetch()).setRemote(ORIGIN).setUnshallow(true).call();
            }
            StoredConfig config = repo.getConfig();
            config.setString("remote", ORIGIN, "fetch", "+refs/heads/*:refs/remotes/origin/*");
            config.save();
            network(git.fetch()).setRemote(ORIGIN).call();
            ArrayNode out = JsJson.array();
            String current = repo.getFullBranch();
            try (ObjectReader reader = repo.newObjectReader(); RevWalk walk = new RevWalk(reader)) {
                for (Ref ref : sortedBranches(git, null)) {
                    out.add(branch(ref, Repository.shortenRefName(ref.getName()), ref.getName().equals(current), reader, walk));
                }
                for (Ref ref : sortedBranches(git, ListBranchCommand.ListMode.REMOTE)) {
                    String name = Repository.shortenRefName(ref.getName());
                    if (name.startsWith(ORIGIN + "/") && !ref.isSymbolic()) {
                        out.add(branch(ref, name, false, reader, walk));
                    }
                }
            }
            return out;
        } catch (GitAPIException | IOException | RuntimeException e) {
            throw rethrow("Getting branches", e, folder);
        }
    }

    /** {@code git branch -v}'s view of a branch: abbreviated commit and its subject. */
    private static ObjectNode branch(Ref ref, String name, boolean current, ObjectReader reader, RevWalk walk)
            throws IOException {
        RevCommit commit = walk.parseCommit(ref.getObjectId());
        return JsJson.object().put("current", current).put("commit", reader.abbreviate(commit, 7).name())
                .put("name", name).put("label", commit.getShortMessage());
    }

    private static List<Ref> sortedBranches(Git git, ListBranchCommand.ListMode mode) throws GitAPIException {
        List<Ref> refs = new ArrayList<>(git.branchList().setListMode(mode).call());
        refs.sort(Comparator.comparing(Ref::getName));
        return refs;
    }

    /**
     * Checks out a branch: {@code origin/<name>} as the local {@code <name>}, created to track it when missing;
     * a plain name only when that local branch exists (404 otherwise).
     */
    void switchBranch(Path folder, String branch) {
        try (Git git = openOrFail(folder)) {
            Repository repo = git.getRepository();
            if (branch.startsWith(ORIGIN + "/")) {
                String local = branch.substring(ORIGIN.length() + 1);
                boolean exists = repo.exactRef(Constants.R_HEADS + local) != null;
                git.checkout().setName(local).setCreateBranch(!exists).setStartPoint(exists ? null : branch)
                        .setUpstreamMode(exists ? null : CreateBranchCommand.SetupUpstreamMode.TRACK).call();
                return;
            }
            if (repo.exactRef(Constants.R_HEADS + branch) == null) {
                throw Refusal.notFound("Branch " + branch + " does not exist locally");
            }
            if (!branch.equals(repo.getBranch())) {
                git.checkout().setName(branch).call();
                LOG.info("Checked out branch {} at {}", branch, folder);
            }
        } catch (RefNotFoundException e) {
            throw Refusal.notFound("Branch " + branch + " does not exist");
        } catch (InvalidRefNameException e) {
            throw Refusal.badRequest("Invalid branch name: " + branch);
        } catch (GitAPIException | IOException | RuntimeException e) {
            throw rethrow("Switching branches", e, folder);
        }
    }

    /** The checkout in the folder, read from it alone (no network); null when the folder is not one. */
    ExtensionRecords.Checkout checkout(Path folder) {
        try (Git git = open(folder)) {
            ObjectId head = git == null ? null : git.getRepository().resolve(Constants.HEAD);
            if (head == null) {
                return null;
            }
            Repository repo = git.getRepository();
            String url = repo.getConfig().getString("remote", ORIGIN, "url");
            String branch = repo.getFullBranch().startsWith(Constants.R_HEADS) ? repo.getBranch() : ""; // else detached
            return new ExtensionRecords.Checkout(url == null ? "" : url, branch, head.name());
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot read the checkout at {}", folder, e);
            return null;
        }
    }

    /**
     * Brings the folder to the checkout another node recorded: cloned when missing, else fetched from origin, then
     * on its branch at its commit.
     */
    void bringTo(Path folder, ExtensionRecords.Checkout wanted) {
        try {
            if (!Files.isDirectory(folder)) {
                Path staging = folder.resolveSibling(STAGING_PREFIX + UUID.randomUUID());
                try {
                    CloneCommand clone = network(Git.cloneRepository()).setURI(wanted.url())
                            .setDirectory(staging.toFile()).setDepth(1);
                    if (!wanted.branch().isEmpty()) {
                        clone.setBranch(wanted.branch());
                    }
                    try (Git git = clone.call()) {
                        moveTo(git, wanted);
                    }
                    Files.move(staging, folder);
                } finally {
                    deleteQuietly(staging);
                }
                return;
            }
            try (Git git = openOrFail(folder)) {
                network(git.fetch()).setRemote(ORIGIN).call();
                moveTo(git, wanted);
            }
        } catch (GitAPIException | IOException | RuntimeException e) {
            throw rethrow("Bringing the extension to commit " + wanted.commit(), e, folder);
        }
    }

    /** Checks out the wanted branch (tracking origin's when missing) and resets it to the wanted commit. */
    private void moveTo(Git git, ExtensionRecords.Checkout wanted) throws GitAPIException, IOException {
        Repository repo = git.getRepository();
        ObjectId commit = ObjectId.fromString(wanted.commit());
        if (!repo.getObjectDatabase().has(commit) && !repo.getObjectDatabase().getShallowCommits().isEmpty()) {
            network(git.fetch()).setRemote(ORIGIN).setUnshallow(true).call();
        }
        String branch = wanted.branch();
        if (!branch.isEmpty() && !branch.equals(repo.getBranch())) {
            boolean exists = repo.exactRef(Constants.R_HEADS + branch) != null;
            git.checkout().setName(branch).setCreateBranch(!exists)
                    .setStartPoint(exists ? null : ORIGIN + "/" + branch)
                    .setUpstreamMode(exists ? null : CreateBranchCommand.SetupUpstreamMode.TRACK).call();
        }
        if (!commit.equals(repo.resolve(Constants.HEAD))) {
            git.reset().setMode(ResetCommand.ResetType.HARD).setRef(wanted.commit()).call();
        }
    }

    /** Fetches origin, then whether HEAD has every commit of origin's copy of the current branch. */
    private RemoteState fetchAndCompare(Git git) throws GitAPIException, IOException {
        Repository repo = git.getRepository();
        Set<String> remotes = repo.getConfig().getSubsections("remote");
        if (remotes.isEmpty()) {
            return new RemoteState(true, "");
        }
        network(git.fetch()).setRemote(ORIGIN).call();
        String remoteName = remotes.contains(ORIGIN) ? ORIGIN : remotes.iterator().next();
        String remoteUrl = repo.getConfig().getString("remote", remoteName, "url");
        ObjectId head = repo.resolve(Constants.HEAD);
        ObjectId tracked = repo.resolve(Constants.R_REMOTES + ORIGIN + "/" + repo.getBranch());
        boolean upToDate = true;
        if (tracked != null && head != null) {
            try (RevWalk walk = new RevWalk(repo)) {
                walk.markStart(walk.parseCommit(tracked));
                walk.markUninteresting(walk.parseCommit(head));
                upToDate = walk.next() == null;
            }
        }
        return new RemoteState(upToDate, remoteUrl == null ? "" : remoteUrl);
    }

    private record RemoteState(boolean upToDate, String remoteUrl) {
    }

    private <C extends TransportCommand<C, ?>> C network(C command) {
        return command.setTimeout(TIMEOUT_SECONDS).setTransportConfigCallback(connections);
    }

    /** The checkout whose root is this folder (ST: {@code checkIsRepo(IS_REPO_ROOT)}), or null. */
    private static Git open(Path folder) throws IOException {
        Path gitDir = folder.resolve(Constants.DOT_GIT);
        if (!Files.isDirectory(gitDir)) {
            return null;
        }
        return new Git(new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setWorkTree(folder.toFile())
                .setMustExist(true).build(), true);
    }

    private Git openOrFail(Path folder) throws IOException {
        Git git = open(folder);
        if (git == null) {
            throw notARepository(folder);
        }
        return git;
    }

    /** ST's error (a 500 there): the folder is the extension's, but no git checkout, so git cannot work on it. */
    private Refusal notARepository(Path folder) {
        return Refusal.conflict("Directory is not a Git repository at " + shown(folder));
    }

    private Refusal rethrow(String what, Exception e, Path folder) {
        return e instanceof Refusal error ? error : failure(what, e, folder);
    }

    /**
     * Git's own message, which says what went wrong (not found, refused, offline), as a 500 like ST's; a path
     * in it under the extension's folder is named as {@link #shown} names it.
     */
    private Refusal failure(String what, Exception e, Path folder) {
        LOG.error("{} failed", what, e);
        Throwable cause = e instanceof JGitInternalException && e.getCause() != null ? e.getCause() : e;
        Throwable refused = refusal(e);
        // JGit's message would only say "cannot open git-upload-pack"
        String message = String.valueOf((refused != null ? refused : cause).getMessage());
        Path extensions = folder.getParent();
        return Refusal.failed(what + " failed: " + message.replace(extensions.toString(), shownRoot(extensions)));
    }

    /** The outbound filter's refusal among the causes, or null. */
    private static Throwable refusal(Throwable e) {
        Throwable refused = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OutboundPolicy.Refused) {
                refused = t;
            }
        }
        return refused;
    }

    private static void deleteQuietly(Path folder) {
        try {
            AtomicFiles.deleteTree(folder);
        } catch (UncheckedIOException e) {
            LOG.warn("Cannot remove {}", folder, e);
        }
    }
}
