package dev.chdedup.stub.distributed;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * A ClickHouse server configuration file as the stub reads it, after ClickHouse's {@code ConfigProcessor}: the main
 * file ({@code <clickhouse>} or 18.16's {@code <yandex>}) merged with every {@code *.xml} of the {@code config.d}
 * and {@code conf.d} directories beside it, in name order (an element of the same name merges into the first one
 * not yet merged, {@code replace="1"} replaces it, {@code remove="1"} removes it, another is appended;
 * {@code from_env="VAR"} takes a value from the environment). Of the result the stub takes {@code remote_servers}
 * (clusters: {@link #clusters}), {@code macros} and {@code zookeeper}; every other section is ignored. A port in
 * {@code remote_servers} is the stub's HTTP port of that server (HTTPS with {@code <secure>1</secure>}).
 */
public final class ConfigProcessor {
    /** What the stub takes from a configuration. {@code zookeeper} is a connect string, or null when none is configured. */
    public record ServerConfig(List<Cluster> clusters, Map<String, String> macros, String zookeeper, Integer zookeeperSessionTimeoutMs) {
        public ServerConfig {
            clusters = List.copyOf(clusters);
            macros = Map.copyOf(macros);
        }
    }

    private ConfigProcessor() {
    }

    /** Reads {@code file} and its config.d / conf.d; CANNOT_LOAD_CONFIG when it cannot be read or parsed. */
    public static ServerConfig load(Path file) {
        Element root = read(file);
        Path dir = file.toAbsolutePath().getParent();
        for (String sub : List.of("config.d", "conf.d")) {
            Path d = dir.resolve(sub);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> files = Files.list(d)) {
                for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".xml")).sorted().toList()) {
                    merge(root, read(p));
                }
            } catch (IOException e) {
                throw new ChException(ErrorCode.CANNOT_LOAD_CONFIG, "Cannot read " + d + ": " + e.getMessage());
            }
        }
        return parse(root);
    }

    /** The configuration an XML text holds (no config.d), for tests and embedders. */
    public static ServerConfig parse(String xml) {
        return parse(document(new java.io.ByteArrayInputStream(xml.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "the given text"));
    }

    private static ServerConfig parse(Element root) {
        List<Cluster> clusters = new ArrayList<>();
        Element remote = child(root, "remote_servers");
        if (remote != null) {
            for (Element c : children(remote)) {
                clusters.add(cluster(c));
            }
        }
        Map<String, String> macros = new LinkedHashMap<>();
        Element m = child(root, "macros");
        if (m != null) {
            for (Element e : children(m)) {
                macros.put(e.getTagName(), text(e));
            }
        }
        String zookeeper = null;
        Integer timeout = null;
        Element zk = child(root, "zookeeper");
        if (zk != null) {
            List<String> nodes = new ArrayList<>();
            for (Element n : children(zk)) {
                if (n.getTagName().startsWith("node")) {
                    String host = required(n, "host");
                    String port = optional(n, "port", "2181");
                    nodes.add((host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port);
                }
            }
            if (!nodes.isEmpty()) {
                String chroot = optional(zk, "root", "");
                zookeeper = String.join(",", nodes) + (chroot.isEmpty() ? "" : chroot.startsWith("/") ? chroot : "/" + chroot);
            }
            String t = optional(zk, "session_timeout_ms", null);
            timeout = t == null ? null : Integer.valueOf(t);
        }
        return new ServerConfig(clusters, macros, zookeeper, timeout);
    }

    /** One {@code remote_servers} entry, with ClickHouse's rules and errors ({@code Cluster::Cluster} from a configuration). */
    static Cluster cluster(Element c) {
        String name = c.getTagName();
        List<Element> keys = new ArrayList<>();
        for (Element k : children(c)) {
            if (!k.getTagName().equals("secret") && !k.getTagName().equals("allow_distributed_ddl_queries")) {
                keys.add(k);
            }
        }
        if (keys.isEmpty()) {
            throw new ChException(ErrorCode.SHARD_HAS_NO_CONNECTIONS, "No cluster elements (shard, node) specified in config at path remote_servers."
                + name + ".");
        }
        long named = keys.stream().filter(k -> child(k, "name") != null).count();
        if (named != 0 && named != keys.size()) {
            throw new ChException(ErrorCode.INVALID_SHARD_ID, "name must be specified for every shard(node) in the config or for none. Config: remote_servers."
                + name + ".");
        }
        List<Cluster.ShardInfo> shards = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Element k : keys) {
            String key = k.getTagName();
            boolean withReplicas = key.startsWith("shard");
            if (!withReplicas && !key.startsWith("node")) {
                throw new ChException(ErrorCode.UNKNOWN_ELEMENT_IN_CONFIG, "Unknown element in config: " + key);
            }
            int shardNum = shards.size() + 1;
            int weight = Integer.parseInt(optional(k, "weight", "1"));
            String shardName = named == 0 ? "" : text(child(k, "name"));
            if (named != 0 && (shardName.isEmpty() || !names.add(shardName))) {
                throw new ChException(ErrorCode.INVALID_SHARD_ID, "Field shard_name is incorrect. It must be unique in cluster and non-empty");
            }
            List<Cluster.Address> replicas = new ArrayList<>();
            boolean internal = false;
            if (!withReplicas) {
                replicas.add(address(k, shardNum, 1));
            } else {
                internal = bool(optional(k, "internal_replication", "false"));
                for (Element r : children(k)) {
                    String rk = r.getTagName();
                    if (rk.startsWith("weight") || rk.startsWith("internal_replication") || rk.startsWith("name")) {
                        continue;
                    }
                    if (!rk.startsWith("replica")) {
                        throw new ChException(ErrorCode.UNKNOWN_ELEMENT_IN_CONFIG, "Unknown element in config: " + rk);
                    }
                    replicas.add(address(r, shardNum, replicas.size() + 1));
                }
                if (replicas.isEmpty()) {
                    throw new ChException(ErrorCode.SHARD_HAS_NO_CONNECTIONS, "Found shard without any specified connection");
                }
            }
            shards.add(new Cluster.ShardInfo(shardNum, weight, internal, replicas, shardName));
        }
        if (shards.stream().allMatch(s -> s.weight() == 0)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cluster with zero weight on all shards is prohibited");
        }
        return new Cluster(name, shards);
    }

    private static Cluster.Address address(Element e, int shard, int replica) {
        return new Cluster.Address(required(e, "host"), Integer.parseInt(required(e, "port")), optional(e, "user", "default"),
            optional(e, "password", ""), optional(e, "default_database", ""), bool(optional(e, "secure", "false")), shard, replica);
    }

    /** Poco's boolean: true, yes, on or a non-zero number. */
    static boolean bool(String v) {
        String s = v.trim().toLowerCase(java.util.Locale.ROOT);
        if (s.equals("true") || s.equals("yes") || s.equals("on")) {
            return true;
        }
        if (s.equals("false") || s.equals("no") || s.equals("off")) {
            return false;
        }
        try {
            return Long.parseLong(s) != 0;
        } catch (NumberFormatException ex) {
            throw new ChException(ErrorCode.CANNOT_LOAD_CONFIG, "Cannot convert to boolean: " + v);
        }
    }

    private static String required(Element e, String name) {
        Element c = child(e, name);
        if (c == null) {
            throw new ChException(ErrorCode.NO_ELEMENTS_IN_CONFIG, "Not found: " + path(e) + "." + name);
        }
        return text(c);
    }

    private static String optional(Element e, String name, String otherwise) {
        Element c = child(e, name);
        return c == null ? otherwise : text(c);
    }

    private static String path(Element e) {
        StringBuilder sb = new StringBuilder(e.getTagName());
        for (Node p = e.getParentNode(); p instanceof Element pe && pe.getParentNode() instanceof Element; p = p.getParentNode()) {
            sb.insert(0, pe.getTagName() + ".");
        }
        return sb.toString();
    }

    /** An element's text, trimmed, or the environment variable its {@code from_env} names. */
    private static String text(Element e) {
        String env = e.getAttribute("from_env");
        if (!env.isEmpty()) {
            String v = System.getenv(env);
            return v == null ? "" : v.trim();
        }
        return e.getTextContent().trim();
    }

    private static Element child(Element e, String name) {
        for (Element c : children(e)) {
            if (c.getTagName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private static List<Element> children(Element e) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                out.add(c);
            }
        }
        return out;
    }

    /** Merges {@code with} into {@code into}, as ClickHouse's {@code ConfigProcessor::mergeRecursive}. */
    private static void merge(Element into, Element with) {
        List<Element> unmerged = children(into);
        for (Element w : children(with)) {
            Element match = null;
            for (Element c : unmerged) {
                if (c.getTagName().equals(w.getTagName())) {
                    match = c;
                    break;
                }
            }
            boolean remove = bool(w.getAttribute("remove").isEmpty() ? "0" : w.getAttribute("remove"));
            boolean replace = bool(w.getAttribute("replace").isEmpty() ? "0" : w.getAttribute("replace"));
            if (match != null) {
                unmerged.remove(match);
                if (remove) {
                    into.removeChild(match);
                } else if (replace || children(w).isEmpty() || children(match).isEmpty()) {
                    into.replaceChild(into.getOwnerDocument().importNode(w, true), match);
                } else {
                    merge(match, w);
                }
            } else if (!remove) {
                into.appendChild(into.getOwnerDocument().importNode(w, true));
            }
        }
    }

    private static Element read(Path file) {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            return document(in, file.toString());
        } catch (IOException e) {
            throw new ChException(ErrorCode.CANNOT_LOAD_CONFIG, "Cannot read config file " + file + ": " + e.getMessage());
        }
    }

    private static Element document(java.io.InputStream in, String what) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true); // no entities reaching other files
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            Document d = b.parse(in);
            return d.getDocumentElement();
        } catch (SAXException | IOException | javax.xml.parsers.ParserConfigurationException e) {
            throw new ChException(ErrorCode.CANNOT_LOAD_CONFIG, "Cannot parse config " + what + ": " + e.getMessage());
        }
    }
}
